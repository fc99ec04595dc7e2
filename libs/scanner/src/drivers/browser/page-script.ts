/**
 * Runs inside every frame of a scanned page (plain ES2020 so no compiler helper leaks in).
 * It finds the chat input, the send control and the answer on chat pages nobody described to
 * us, walking open shadow roots (web components) as well as the light DOM.
 *
 * The answer is the bot's own message, found by the page's structure, never by comparing text
 * with what we sent (widgets transform our message before they show it: markdown rendered,
 * code fences dropped, JSON re-quoted). From the moment a message is about to be sent, a
 * MutationObserver numbers every node the page adds (in the document and in open shadow roots).
 * The bubble that appeared while the page handled our send (the click or the Enter, up to the
 * next task) is ours: no answer can have come back by then. The message list is the container
 * the new content went into (their lowest common ancestor); its children holding new content
 * are the messages; ours is the one that holds what appeared on send, as a whole subtree, with
 * whatever the widget rendered from our text. The answer is the messages added after it, less
 * any that the page marks as the user's (role attributes and classes). A page that showed
 * nothing on send is read by those marks and by alignment instead; when neither tells, the
 * reading says it is uncertain, and why.
 *
 * Freshness is counted, not remembered: visible text beyond the counts noted before sending is
 * new (attributed to the last occurrences, chats append), which survives frameworks that
 * re-render the whole message list.
 */
export const PAGE_SCRIPT = String.raw`(() => {
  if (window.__gauntlet) return;
  // a page opening windows in a loop steals focus from the chat and starves the browser: a chat
  // needs no popup, so none opens (those that slip through are closed by the driver)
  try { Object.defineProperty(window, 'open', { value: () => null, configurable: false, writable: false }); } catch (e) {}
  const CHAT_WORDS = /message|chat|ask|type|question|prompt|write|say|talk|reply|query|compose|conversation/i;
  const AVOID_WORDS = /search|e-?mail|password|log ?in|sign ?(in|up)|subscribe|newsletter|coupon|promo|phone|user ?name/i;
  const SEND_WORDS = /\bsend\b|submit|senden|enviar|envoyer|invia|➤|➢|⮕|paper-?plane/i;
  const WEAK_SEND_WORDS = /\bask\b|\bgo\b|arrow|↑|→/i;
  const NOT_SEND_WORDS = /attach|upload|file|emoji|mic|voice|record|speech|clear|close|minimi|menu|setting|stop|new chat|reset|delete|copy|like|feedback|expand|toggle|scroll/i;
  const INDICATOR_WORDS = /typing|loading|loader|thinking|spinner|pending|dots|writing|generating|bouncing|ellipsis/i;
  const LAUNCHER_WORDS = /chat|message|help|support|talk|assistant|bot|conversation|ask/i;
  const NOISE_TEXT = /^(\.{1,3}|…|(is )?(typing|thinking|loading|writing|generating)(\.{0,3}|…)|\d{1,2}:\d{2}(:\d{2})?\s*([ap]\.?m\.?)?|just now|now)$/i;
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'INPUT', 'SELECT', 'OPTION', 'SVG', 'svg', 'HEAD', 'TITLE']);

  const norm = (s) => String(s || '').replace(/\s+/g, ' ').trim();
  const parentOf = (n) => (n.parentNode instanceof ShadowRoot ? n.parentNode.host : n.parentElement);
  const isInside = (n, root) => { for (let a = n; a; a = parentOf(a)) if (a === root) return true; return false; };
  const visible = (el) => {
    if (!el || !el.isConnected) return false;
    if (el.checkVisibility) return el.checkVisibility({ checkVisibilityCSS: true });
    return el.getClientRects().length > 0;
  };

  function* elements(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      yield n;
      if (n.shadowRoot) yield* elements(n.shadowRoot);
    }
  }
  // no filter callback: once a page calls window.open, Chromium refuses to run a TreeWalker's
  // callback ("no longer runnable"), so skipped subtrees are stepped over by hand
  function* textNodes(root) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    if (root.shadowRoot) yield* textNodes(root.shadowRoot);
    let n = walker.nextNode();
    while (n) {
      if (n.nodeType === 1 && SKIP.has(n.tagName)) {
        n = walker.nextSibling();
        while (!n && walker.parentNode()) n = walker.nextSibling();
        continue;
      }
      if (n.nodeType === 3) yield n;
      else if (n.shadowRoot) yield* textNodes(n.shadowRoot);
      n = walker.nextNode();
    }
  }
  const visibleTexts = (root) => {
    const out = [];
    for (const t of textNodes(root)) {
      const text = norm(t.data);
      if (text && !(t.parentElement && t.parentElement.isContentEditable) && visible(t.parentElement)) out.push({ node: t, text });
    }
    return out;
  };
  const deepText = (el) => norm(visibleTexts(el).map((t) => t.text).join(' '));
  const deepMatches = (selector) => Array.from(elements(document)).filter((el) => el.matches(selector));

  const labelOf = (el) => {
    const parts = ['placeholder', 'aria-label', 'aria-placeholder', 'data-placeholder', 'title', 'name', 'id', 'value', 'alt']
      .map((a) => el.getAttribute(a));
    if (typeof el.className === 'string') parts.push(el.className);
    if (el.labels) for (const l of el.labels) parts.push(l.textContent);
    const by = el.getAttribute('aria-labelledby');
    if (by) for (const id of by.split(/\s+/)) { const l = el.getRootNode().getElementById && el.getRootNode().getElementById(id); if (l) parts.push(l.textContent); }
    return norm(parts.filter(Boolean).join(' '));
  };
  const editable = (el) => {
    if (el.tagName === 'TEXTAREA') return !el.disabled && !el.readOnly;
    if (el.tagName === 'INPUT') return ['text', 'search', ''].includes((el.getAttribute('type') || '').toLowerCase()) && !el.disabled && !el.readOnly;
    if (el.isContentEditable) return !(el.parentElement && el.parentElement.isContentEditable);
    return el.getAttribute('role') === 'textbox';
  };
  const inputScore = (el) => {
    const label = labelOf(el);
    let score = 0;
    if (CHAT_WORDS.test(label)) score += 4;
    if (AVOID_WORDS.test(label)) score -= 6;
    if (el.tagName === 'TEXTAREA' || el.isContentEditable || el.getAttribute('role') === 'textbox') score += 2;
    if ((el.getAttribute('type') || '').toLowerCase() === 'search') score -= 3;
    const r = el.getBoundingClientRect();
    if (r.top > window.innerHeight / 2) score += 1;
    if (r.width < 40 || r.height < 10) score -= 4;
    return score;
  };

  // elements that load, link or run something: what an answer must not bring into a page
  const ACTIVE_TAGS = new Set(['SCRIPT', 'IMG', 'IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'VIDEO', 'AUDIO', 'SOURCE', 'FORM', 'LINK', 'META', 'BASE', 'svg', 'SVG']);
  const active = (el) => {
    if (ACTIVE_TAGS.has(el.tagName)) return true;
    if (el.tagName === 'A' && el.getAttribute('href')) return true;
    for (const a of el.attributes) if (/^on/i.test(a.name) || /^\s*(?:javascript|data|vbscript):/i.test(a.value)) return true;
    return false;
  };
  // elements that can run script (not only load or link): what a dialog, a console line or a title needs
  const scriptable = (el) => {
    if (el.tagName === 'SCRIPT' || el.tagName === 'OBJECT' || el.tagName === 'EMBED') return true;
    if (el.tagName === 'IFRAME' && el.getAttribute('srcdoc')) return true;
    for (const a of el.attributes) if (/^on/i.test(a.name) || /^\s*(?:javascript|vbscript):/i.test(a.value)) return true;
    return false;
  };
  const URL_ATTRS = ['src', 'href', 'srcset', 'poster', 'data', 'action', 'formaction', 'xlink:href', 'background'];
  const urlsOf = (el) => {
    const out = [];
    for (const name of URL_ATTRS) {
      const v = el.getAttribute(name);
      if (!v) continue;
      for (const part of name === 'srcset' ? v.split(',').map((p) => p.trim().split(/\s+/)[0]) : [v.trim()]) {
        try { out.push(new URL(part, document.baseURI).href); } catch (e) {}
      }
    }
    // a style loads what its url(...) names (a background image)
    const style = el.getAttribute('style');
    if (style) for (const m of style.matchAll(/url\(\s*['"]?([^'")\s]+)/gi)) { try { out.push(new URL(m[1], document.baseURI).href); } catch (e) {} }
    return out;
  };

  // which side a message is on, from the words its roles, classes and ids use
  const USER_WORDS = new Set(['user', 'human', 'me', 'mine', 'self', 'own', 'outgoing', 'outbound', 'sent', 'guest', 'visitor', 'customer', 'question', 'right']);
  const BOT_WORDS = new Set(['bot', 'assistant', 'ai', 'agent', 'incoming', 'inbound', 'received', 'host', 'model', 'llm', 'answer', 'response', 'reply', 'operator', 'left']);
  const wordsOf = (el) => {
    const parts = [el.getAttribute('role'), el.id, typeof el.className === 'string' ? el.className : el.getAttribute('class')];
    for (const a of el.attributes) if (/^(data|aria)-/i.test(a.name) && a.value.length < 40) parts.push(a.name.replace(/^(data|aria)-/i, '') + ' ' + a.value);
    return parts.filter(Boolean).join(' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
  };
  const sideOfElement = (el) => {
    // a message may be a bare text node, and a walk up may reach the document: neither has marks
    if (!el || el.nodeType !== 1) return null;
    let user = 0, bot = 0;
    for (const w of wordsOf(el)) { if (USER_WORDS.has(w)) user++; if (BOT_WORDS.has(w)) bot++; }
    return user > bot ? 'user' : bot > user ? 'bot' : null;
  };
  /** the side a message's own marks give it: the message, its wrappers up to the list, then its content, nearest first */
  const sideOf = (root, list) => {
    for (let a = root; a && a !== list; a = parentOf(a)) { const s = sideOfElement(a); if (s) return s; }
    let level = [root];
    for (let depth = 0; depth < 3 && level.length; depth++) {
      const next = [];
      for (const el of level) for (const c of (el.children || [])) { const s = sideOfElement(c); if (s) return s; if (next.length < 40) next.push(c); }
      level = next;
    }
    return null;
  };

  // ---- numbering what the page adds ---------------------------------------------------------
  let seq = 0;
  const addedAt = new WeakMap();
  const observed = new WeakSet();
  const observers = [];
  const record = (records) => {
    for (const r of records) {
      if (r.type === 'characterData') { if (!addedAt.has(r.target)) addedAt.set(r.target, ++seq); continue; }
      for (const n of r.addedNodes) if (!addedAt.has(n)) addedAt.set(n, ++seq);
    }
  };
  const observeAll = () => {
    const roots = [document];
    for (const el of elements(document)) if (el.shadowRoot) roots.push(el.shadowRoot);
    for (const root of roots) {
      if (observed.has(root)) continue;
      observed.add(root);
      const o = new MutationObserver(record);
      o.observe(root, { childList: true, subtree: true, characterData: true });
      observers.push(o);
    }
  };
  const flush = () => { for (const o of observers) record(o.takeRecords()); };
  /** when a node came: its own number, its nearest numbered ancestor's, or now (a root we observed late) */
  const seqOf = (node) => {
    for (let a = node; a; a = a.parentNode instanceof ShadowRoot ? a.parentNode.host : a.parentNode) if (addedAt.has(a)) return addedAt.get(a);
    addedAt.set(node, ++seq);
    return seq;
  };
  // the send: from the trusted click, key or submit that sends until the page's next task; what
  // the page adds then is its handling of our message, before any answer could come back
  const sendEvent = (e) => {
    const s = api.state;
    if (!s || !e.isTrusted) return;
    flush();
    if (!s.window || s.window.to !== null) s.windows.push((s.window = { from: seq, to: null }));
    clearTimeout(s.windowTimer);
    s.windowTimer = setTimeout(() => {
      flush();
      const w = s.window;
      if (!w) return;
      w.to = seq;
      // the words that appeared on send, to know our message again when the page draws its list anew
      w.texts = visibleTexts(document).filter((t) => { const n = seqOf(t.node); return n > w.from && n <= w.to; }).map((t) => t.text).slice(0, 50);
    }, 0);
  };
  for (const type of ['click', 'keydown', 'keypress', 'keyup', 'submit', 'pointerup', 'mouseup']) window.addEventListener(type, sendEvent, true);
  const inWindow = (n) => api.state.windows.some((w) => n > w.from && (w.to === null || n <= w.to));

  // ---- what ran in the page, and from where ---------------------------------------------------
  // a dialog or console line notes the element that caused it (the element whose handler runs,
  // the script running, or the frame it runs in), so an effect of our own bubble is told apart
  const origins = [];
  const originOf = () => {
    const e = window.event;
    if (e && e.target && e.target.nodeType === 1) return e.target;
    return document.currentScript || null;
  };
  const noteOrigin = (kind, detail, el) => {
    if (origins.length < 50) origins.push({ kind, detail: String(detail).slice(0, 500), el });
  };
  const tell = (kind, detail) => {
    const el = originOf();
    noteOrigin(kind, detail, el);
    try { if (window.frameElement && window.parent.__gauntlet) window.parent.__gauntlet.noteOrigin(kind, detail, window.frameElement); } catch (e) {}
  };
  for (const name of ['alert', 'confirm', 'prompt']) {
    const original = window[name];
    if (typeof original === 'function') try { window[name] = function (m) { try { tell('dialog', m === undefined ? '' : String(m)); } catch (e) {} return original.apply(this, arguments); }; } catch (e) {}
  }
  for (const name of ['log', 'info', 'warn', 'error', 'debug']) {
    const original = console[name];
    if (typeof original === 'function') try { console[name] = function () { try { tell('console', Array.from(arguments).map((a) => String(a)).join(' ')); } catch (e) {} return original.apply(this, arguments); }; } catch (e) {}
  }

  const inButton = (n) => { for (let a = n.parentElement ? n.parentElement : parentOf(n), i = 0; a && i < 4; a = parentOf(a), i++) if (a.tagName === 'BUTTON' || a.getAttribute('role') === 'button') return true; return false; };
  const lca = (nodes) => {
    if (!nodes.length) return null;
    const path = (n) => { const out = []; for (let a = n; a; a = parentOf(a)) out.unshift(a); return out; };
    let common = path(nodes[0]);
    for (const n of nodes.slice(1)) {
      const p = path(n);
      let i = 0;
      while (i < common.length && i < p.length && common[i] === p[i]) i++;
      common = common.slice(0, i);
    }
    return common[common.length - 1] || null;
  };
  /** the child of list on the way to node (node itself when it is one) */
  const childOf = (list, node) => { for (let a = node; a; a = parentOf(a)) if (parentOf(a) === list) return a; return null; };
  /** the horizontal side a message sits on in its list, or null when it spans it */
  const alignment = (root, list) => {
    const lr = list.getBoundingClientRect();
    let left = Infinity, right = -Infinity;
    for (const { node } of visibleTexts(root)) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      if (!r.width) continue;
      left = Math.min(left, r.left);
      right = Math.max(right, r.right);
    }
    if (!(right > left) || lr.width < 100) return null;
    // a bubble narrower than its list says its side by its box (its text may wrap short of its edge)
    const box = root.nodeType === 1 ? root.getBoundingClientRect() : null;
    if (box && box.width > 0 && box.width < lr.width * 0.9) { left = box.left; right = box.right; }
    const before = left - lr.left, after = lr.right - right;
    return before > after + lr.width * 0.1 ? 'user' : after > before + lr.width * 0.1 ? 'bot' : null;
  };
  /** a is placed before b in the page (neither holding the other, both in one tree) */
  const before = (a, b) => {
    const p = b.compareDocumentPosition(a);
    return Boolean(p & Node.DOCUMENT_POSITION_PRECEDING) && !(p & (Node.DOCUMENT_POSITION_CONTAINS | Node.DOCUMENT_POSITION_DISCONNECTED));
  };
  const inputText = (el) => (el && ('value' in el && (el.tagName === 'TEXTAREA' || el.tagName === 'INPUT')) ? el.value : norm(el && el.innerText));

  // the page's own timer, taken before any of its scripts could replace it
  const every = window.setInterval.bind(window);
  const TICK_MS = 50;
  /** the chat input is held while the bot answers (disabled or read-only since we typed in it) */
  const held = (el) => Boolean(el && el.isConnected && (el.disabled || el.readOnly || el.getAttribute('aria-disabled') === 'true'));

  const api = {
    /** the chat input: the configured selector, else the best-scoring visible editable element */
    findInput(selector) {
      if (selector) { const el = deepMatches(selector).find(visible); return el ? { el, score: 100 } : null; }
      let best = null;
      let bestScore = -3;
      for (const el of elements(document)) {
        if (!editable(el) || !visible(el)) continue;
        const score = inputScore(el);
        if (score > bestScore) { best = el; bestScore = score; }
      }
      return best ? { el: best, score: bestScore } : null;
    },
    /** a send control near the input, or null (the driver then presses Enter) */
    findSend(input, selector) {
      if (selector) return deepMatches(selector).find(visible) || null;
      const ir = input.getBoundingClientRect();
      let best = null;
      let bestScore = 2;
      for (const el of elements(document)) {
        if (el === input || isInside(el, input) || !visible(el)) continue;
        const tag = el.tagName;
        const type = (el.getAttribute('type') || '').toLowerCase();
        const label = norm(labelOf(el) + ' ' + (el.innerText || '').slice(0, 40));
        const clickable = tag === 'BUTTON' || el.getAttribute('role') === 'button' || (tag === 'INPUT' && ['submit', 'button', 'image'].includes(type));
        if (!clickable && !SEND_WORDS.test(labelOf(el))) continue;
        if (el.disabled || el.getAttribute('aria-disabled') === 'true') continue;
        let score = 0;
        if (SEND_WORDS.test(label)) score += 6;
        else if (WEAK_SEND_WORDS.test(label)) score += 2;
        if (NOT_SEND_WORDS.test(label)) score -= 8;
        if (type === 'submit') score += 3;
        if (input.form && el.form === input.form) score += 3;
        if (!norm(el.innerText) && el.querySelector('svg, img, i, span')) score += 1;
        if (!clickable) score -= 1;
        const r = el.getBoundingClientRect();
        const dx = r.left + r.width / 2 - (ir.left + ir.width / 2);
        const dy = r.top + r.height / 2 - (ir.top + ir.height / 2);
        score -= Math.hypot(dx, dy) / 250;
        if (score > bestScore) { best = el; bestScore = score; }
      }
      return best;
    },
    /** a chat launcher bubble to open a closed widget */
    findLauncher() {
      let best = null;
      let bestScore = 0;
      for (const el of elements(document)) {
        if (!visible(el)) continue;
        const own = labelOf(el);
        const native = el.tagName === 'BUTTON' || el.getAttribute('role') === 'button' || el.tagName === 'A';
        // many widgets make the bubble a plain div: accept those that look clickable and chat-like
        if (!native && !(LAUNCHER_WORDS.test(own) && getComputedStyle(el).cursor === 'pointer')) continue;
        const label = norm(own + ' ' + (el.innerText || '').slice(0, 40));
        let score = LAUNCHER_WORDS.test(label) ? 3 : 0;
        if (NOT_SEND_WORDS.test(label) && !/toggle/i.test(label)) score -= 3;
        const r = el.getBoundingClientRect();
        if (r.top > window.innerHeight * 0.6 && r.left > window.innerWidth * 0.6) score += 2;
        for (let a = el; a; a = parentOf(a)) if (getComputedStyle(a).position === 'fixed') { score += 2; break; }
        if (score > bestScore) { best = el; bestScore = score; }
      }
      return bestScore >= 4 ? best : null;
    },
    snapshot(input, responseSelector) {
      observeAll();
      flush();
      const counts = new Map();
      for (const { text } of visibleTexts(document)) counts.set(text, (counts.get(text) || 0) + 1);
      const indicators = new WeakSet();
      for (const el of elements(document)) if (api.isIndicator(el)) indicators.add(el);
      const matched = responseSelector ? deepMatches(responseSelector) : [];
      const activeBefore = new WeakSet();
      for (const el of elements(document)) if (active(el)) activeBefore.add(el);
      origins.length = 0;
      clearInterval(api.ticker);
      api.state = { input, counts, indicators, responseSelector, matched: new Set(matched), lastMatchedText: matched.length ? deepText(matched[matched.length - 1]) : null, activeBefore, start: seq, windows: [], window: null, windowTimer: null, reading: null, ticks: 0 };
      // the page's own time, in ticks of its timers: a page starved of CPU (a busy machine) ticks
      // slowly, and an answer it is still drawing is not over because the wall clock moved on
      const state = api.state;
      api.ticker = every(() => { state.ticks++; }, TICK_MS);
    },
    noteOrigin,
    /**
     * The page since the snapshot, by structure: what is new (text beyond the counts noted before,
     * elements that load, link or run), the message list it went into, our message (the bubble
     * that appeared on send) and the bot's messages after it.
     */
    reading() {
      const s = api.state;
      observeAll();
      flush();
      let leaves = [];
      const texts = visibleTexts(document).filter((t) => !(s.input && isInside(t.node, s.input)));
      // occurrences beyond the count before sending are new; they are the last ones
      const seen = new Map();
      for (const t of texts) {
        const k = (seen.get(t.text) || 0) + 1;
        seen.set(t.text, k);
        if (k > (s.counts.get(t.text) || 0) && !NOISE_TEXT.test(t.text) && !inButton(t.node)) leaves.push({ node: t.node, text: t.text });
      }
      for (const el of elements(document)) if (active(el) && !s.activeBefore.has(el) && !(s.input && isInside(el, s.input)) && !(document.head && isInside(el, document.head))) leaves.push({ node: el, markup: true });
      for (const l of leaves) l.seq = seqOf(l.node);
      // what the page added before we pressed send (a greeting finishing its typing animation, a
      // message loading late) is neither ours nor an answer to it
      const firstSend = s.windows.length ? s.windows[0].from : null;
      if (firstSend !== null) leaves = leaves.filter((l) => l.seq > firstSend);
      const out = { leaves: [], ours: null, groups: [], attribution: 'uncertain', reason: 'nothing new appeared on the page' };
      if (!leaves.length) return out;
      // ours: the smallest subtree holding what appeared on send, grown while it takes in nothing later
      let sent = leaves.filter((l) => inWindow(l.seq));
      // nothing of what appeared on send is there any more: the page drew its list again (from the
      // conversation it keeps). Our message is then the same words that appeared on send, drawn again
      const drawn = new Set(s.windows.flatMap((w) => w.texts || []));
      const redrawn = !sent.length && drawn.size > 0;
      if (redrawn) sent = leaves.filter((l) => !l.markup && drawn.has(l.text));
      // a page that answers within the same task as our send (a scripted bot) adds both bubbles at
      // once: when what appeared spans several messages the page marks as the user's and the bot's,
      // only the user's are ours, and the bot's count as the answer
      const answeredAtOnce = new Set();
      const top = sent.length > 1 ? lca(sent.map((l) => l.node)) : null;
      const topEl = top && top.nodeType !== 1 ? parentOf(top) : top;
      if (topEl) {
        const byChild = new Map();
        let loose = false;
        for (const l of sent) {
          const c = childOf(topEl, l.node);
          if (!c || c.nodeType !== 1) { loose = true; continue; }
          if (!byChild.has(c)) byChild.set(c, []);
          byChild.get(c).push(l);
        }
        const sides = loose ? [] : Array.from(byChild.keys()).map((c) => sideOf(c, topEl));
        if (byChild.size > 1 && sides.includes('user') && sides.includes('bot')) {
          Array.from(byChild.entries()).forEach(([c, ls], i) => { if (sides[i] === 'bot') for (const l of ls) answeredAtOnce.add(l); });
          sent = sent.filter((l) => !answeredAtOnce.has(l));
        }
      }
      let ours = null;
      let blob = false;
      if (sent.length) {
        ours = lca(sent.map((l) => l.node));
        if (ours && ours.nodeType !== 1) ours = parentOf(ours);
        // drawn again, what our message rendered (its images, its links) is as new as its words: only words tell
        const later = leaves.filter((l) => (!inWindow(l.seq) || answeredAtOnce.has(l)) && !sent.includes(l) && !(redrawn && l.markup));
        if (later.some((l) => isInside(l.node, ours))) blob = true;
        else {
          for (let up = parentOf(ours); up && up !== document.body && up !== document.documentElement && !(s.input && isInside(s.input, up)) && !later.some((l) => isInside(l.node, up)); up = parentOf(up)) ours = up;
        }
      }
      let rest = blob ? leaves : leaves.filter((l) => !(ours && isInside(l.node, ours)));
      // elements the page itself adds elsewhere (a script chunk loaded late, a pixel) are not the
      // answer's: with text to place the conversation, markup counts only where the messages are
      const said = rest.filter((l) => !l.markup);
      if (said.length) {
        const where = lca(said.map((l) => l.node).concat(ours ? [ours] : []));
        const area = where && where.nodeType !== 1 ? parentOf(where) : where;
        rest = rest.filter((l) => !l.markup || (area && isInside(l.node, area)));
      }
      out.ours = blob ? null : ours;
      if (!rest.length) return Object.assign(out, { reason: 'only our message appeared' });
      // the list: where the new messages went; its children holding new content are the messages
      let list = lca(ours ? rest.map((l) => l.node).concat([ours]) : rest.map((l) => l.node));
      if (list && (list.nodeType !== 1 || rest.some((l) => l.node === list) || list === ours)) list = parentOf(list);
      const byRoot = new Map();
      for (const l of rest) {
        const root = childOf(list, l.node) || l.node;
        if (!byRoot.has(root)) byRoot.set(root, { root, leaves: [], seq: Infinity });
        const g = byRoot.get(root);
        g.leaves.push(l);
        g.seq = Math.min(g.seq, l.seq);
      }
      let groups = Array.from(byRoot.values());
      // an answer comes after the message it answers: a message placed before ours in the list (a
      // greeting that finished loading only once we had sent) is not one
      if (ours && !blob) groups = groups.filter((g) => !before(g.root, ours));
      if (!groups.length) return Object.assign(out, { reason: 'only our message appeared' });
      for (const g of groups) g.side = sideOf(g.root, list);
      if (!ours && groups.length > 1 && groups.every((g) => !g.side)) {
        // no marks: the side each message sits on in the list
        for (const g of groups) g.side = alignment(g.root, list);
        if (new Set(groups.map((g) => g.side)).size < 2) for (const g of groups) g.side = null;
      }
      let reason;
      let certain;
      if (blob) { certain = false; reason = 'our message and the answer appeared in one block the page does not divide'; }
      else if (ours) { certain = true; reason = 'the bot\'s messages after the one that appeared when we sent ours'; }
      else {
        // nothing appeared on send: the page's own marks say which messages are the user's
        const first = groups.reduce((a, g) => (g.seq < a.seq ? g : a), groups[0]);
        if (groups.some((g) => g.side === 'user')) { certain = true; reason = 'the bot\'s messages, told from ours by the page\'s marks'; }
        else if (groups.every((g) => g.side === 'bot')) { certain = true; reason = 'messages the page marks as the bot\'s; ours did not show'; }
        else { certain = false; reason = first.side === 'bot' ? 'some new content carries no mark of the bot\'s' : 'our message did not appear as a message of its own when we sent it'; }
      }
      // a message the page marks as the user's is ours, whenever it appeared (a list drawn again)
      const mine = groups.filter((g) => g.side === 'user');
      groups = groups.filter((g) => g.side !== 'user');
      // our message showed only after the send (a widget that draws it a moment later): the answer
      // comes after the last message of ours in the list, never before it (an earlier answer still
      // finishing, a greeting drawn late)
      const lastMine = mine.reduce((a, g) => (!a || before(a.root, g.root) ? g : a), null);
      if (!ours && lastMine) groups = groups.filter((g) => !before(g.root, lastMine.root));
      out.mine = mine.map((g) => g.root);
      out.groups = groups;
      out.list = list;
      out.leaves = groups.flatMap((g) => g.leaves);
      out.attribution = certain ? 'bot_message' : 'uncertain';
      out.reason = reason;
      return out;
    },
    /**
     * What the answer brought into the page, for the record: its elements that load, link or run
     * (bounded), the URLs they load, whether it and our own message can run script, and where
     * each dialog or console line came from (the answer, our message, or unknown).
     */
    observation() {
      const r = api.reading();
      const out = [];
      let size = 0;
      const urls = [];
      let scripts = false;
      for (const l of r.leaves) {
        if (!l.markup) continue;
        urls.push(...urlsOf(l.node));
        if (scriptable(l.node)) scripts = true;
        if (out.length >= 50 || size > 32768) continue;
        const html = l.node.outerHTML.slice(0, 2000);
        out.push(html);
        size += html.length;
      }
      const oursRoots = (r.ours ? [r.ours] : []).concat(r.mine || []);
      let oursScripts = false;
      const oursUrls = [];
      // what our message loads: its active elements, and a style's url(...) (a widget rendering our HTML)
      for (const root of oursRoots) for (const el of [root].concat(Array.from(elements(root)))) if (el.nodeType === 1 && (active(el) || /url\(/i.test(el.getAttribute('style') || ''))) { oursUrls.push(...urlsOf(el)); if (scriptable(el)) oursScripts = true; }
      const where = (el) => {
        if (!el) return 'unknown';
        if (oursRoots.some((root) => isInside(el, root))) return 'ours';
        if (r.groups.some((g) => isInside(el, g.root))) return 'answer';
        return 'page';
      };
      return {
        markup: out.join('\n'),
        attribution: r.attribution,
        reason: r.reason,
        urls: urls.slice(0, 100),
        oursUrls: oursUrls.slice(0, 100),
        scripts,
        oursScripts,
        origins: origins.map((o) => ({ kind: o.kind, detail: o.detail, where: where(o.el) })),
      };
    },
    isIndicator(el) {
      if (!visible(el)) return false;
      if (el.getAttribute('aria-busy') === 'true' || el.getAttribute('role') === 'progressbar') return true;
      const label = (typeof el.className === 'string' ? el.className : '') + ' ' + (el.id || '') + ' ' + (el.getAttribute('aria-label') || '');
      return INDICATOR_WORDS.test(label);
    },
    /** has the message left the input (input emptied, or something appeared on send) */
    sent() {
      const s = api.state;
      if (!norm(inputText(s.input))) return true;
      flush();
      return s.windows.length > 0 && seq > s.windows[0].from;
    },
    read() {
      const s = api.state;
      let indicator = false;
      for (const el of elements(document)) if (!s.indicators.has(el) && api.isIndicator(el)) { indicator = true; break; }
      if (s.responseSelector) {
        const r = api.reading();
        const all = deepMatches(s.responseSelector).filter((el) => visible(el) && !(r.ours && isInside(el, r.ours)));
        const last = all[all.length - 1];
        const text = last ? deepText(last) : '';
        const fresh = last && (!s.matched.has(last) || text !== s.lastMatchedText);
        return { text: fresh ? text : '', indicator, busy: held(s.input), ticks: s.ticks };
      }
      const r = api.reading();
      let text = '';
      let lastBlock = null;
      for (const t of r.leaves) {
        if (t.markup) continue;
        let block = t.node.parentElement || parentOf(t.node);
        while (block && parentOf(block) && /^(inline|contents)/.test(getComputedStyle(block).display)) block = parentOf(block);
        text += lastBlock === null ? t.text : block === lastBlock ? ' ' + t.text : '\n' + t.text;
        lastBlock = block;
      }
      return { text: text.trim(), indicator, busy: held(s.input), ticks: s.ticks, attribution: r.attribution, reason: r.reason, markup: r.leaves.some((l) => l.markup) };
    },
  };
  Object.defineProperty(window, '__gauntlet', { value: api, enumerable: false });
})();`;
