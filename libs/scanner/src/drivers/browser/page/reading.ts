import { inButton, inputText, isIndicator, held } from './controls';
import { before, childOf, deepMatches, deepText, elementOf, elements, isElement, isInside, lca, norm, parentOf, visible, visibleTexts } from './dom';
import { active, scriptable, styled, urlsOf } from './markup';
import { flush, lastNumber, observeAll, seqOf, Sends } from './numbering';
import { forgetOrigins, origins } from './origins';
import { alignment, sideOf } from './sides';
import { AnswerReading, AnswerSoFar, Side, TICK_MS } from './api';

/**
 * The answer is the bot's own message, found by the page's structure, never by comparing text
 * with what we sent (widgets transform our message before they show it: markdown rendered, code
 * fences dropped, JSON re-quoted). From the moment a message is about to be sent, every node the
 * page adds is numbered (numbering.ts). The bubble that appeared while the page handled our send
 * (the click or the Enter, up to the next task) is ours: no answer can have come back by then.
 * The message list is the container the new content went into (their lowest common ancestor);
 * its children holding new content are the messages; ours is the one that holds what appeared on
 * send, as a whole subtree, with whatever the widget rendered from our text. The answer is the
 * messages added after it, less any that the page marks as the user's (role attributes and
 * classes). A page that showed nothing on send is read by those marks and by alignment instead;
 * when neither tells, the reading says it is uncertain, and why.
 *
 * Freshness is counted, not remembered: visible text beyond the counts noted before sending is
 * new (attributed to the last occurrences, chats append), which survives frameworks that
 * re-render the whole message list.
 */

const NOISE_TEXT = /^(\.{1,3}|…|(is )?(typing|thinking|loading|writing|generating)(\.{0,3}|…)|\d{1,2}:\d{2}(:\d{2})?\s*([ap]\.?m\.?)?|just now|now)$/i;

/** what the page was like just before a message was sent */
interface Before {
  input: Element;
  counts: Map<string, number>;
  indicators: WeakSet<Element>;
  responseSelector: string | null;
  matched: Set<Element>;
  lastMatchedText: string | null;
  activeBefore: WeakSet<Element>;
  sends: Sends;
  /** the page's own time since, in ticks */
  ticks: number;
}

/** something new on the page: a text, or an element that loads, links or runs */
interface Leaf {
  node: Node;
  text?: string;
  markup?: true;
  seq: number;
}

/** one message: the list's child holding new content */
interface Group {
  root: Node;
  leaves: Leaf[];
  seq: number;
  side: Side | null;
}

interface Reading {
  leaves: Leaf[];
  ours: Element | null;
  mine: Node[];
  groups: Group[];
  attribution: 'bot_message' | 'uncertain';
  reason: string;
}

let state: Before | null = null;
let ticker: ReturnType<typeof setInterval> | undefined;
// the page's own timer, taken before any of its scripts could replace it
const every = window.setInterval.bind(window);

/** the sends of the message about to go, while there is one */
export const currentSends = (): Sends | null => state?.sends ?? null;

const now = (): Before => {
  if (!state) throw new Error('the page was not noted before sending');
  return state;
};

/** notes the page as it is before a message is sent: what is there already is never the answer */
export function snapshot(input: Element, responseSelector: string | null): void {
  observeAll();
  flush();
  const counts = new Map<string, number>();
  for (const { text } of visibleTexts(document)) counts.set(text, (counts.get(text) || 0) + 1);
  const indicators = new WeakSet<Element>();
  for (const el of elements(document)) if (isIndicator(el)) indicators.add(el);
  const matched = responseSelector ? deepMatches(responseSelector) : [];
  const activeBefore = new WeakSet<Element>();
  for (const el of elements(document)) if (active(el)) activeBefore.add(el);
  forgetOrigins();
  clearInterval(ticker);
  const noted: Before = { input, counts, indicators, responseSelector, matched: new Set(matched), lastMatchedText: matched.length ? deepText(matched[matched.length - 1]) : null, activeBefore, sends: new Sends(), ticks: 0 };
  state = noted;
  // the page's own time, in ticks of its timers: a page starved of CPU (a busy machine) ticks
  // slowly, and an answer it is still drawing is not over because the wall clock moved on
  ticker = every(() => { noted.ticks++; }, TICK_MS);
}

/**
 * The page since the snapshot, by structure: what is new (text beyond the counts noted before,
 * elements that load, link or run), the message list it went into, our message (the bubble
 * that appeared on send) and the bot's messages after it.
 */
function reading(): Reading {
  const s = now();
  observeAll();
  flush();
  let leaves: Leaf[] = [];
  const texts = visibleTexts(document).filter((t) => !isInside(t.node, s.input));
  // occurrences beyond the count before sending are new; they are the last ones
  const seen = new Map<string, number>();
  for (const t of texts) {
    const k = (seen.get(t.text) || 0) + 1;
    seen.set(t.text, k);
    if (k > (s.counts.get(t.text) || 0) && !NOISE_TEXT.test(t.text) && !inButton(t.node)) leaves.push({ node: t.node, text: t.text, seq: 0 });
  }
  for (const el of elements(document)) if (active(el) && !s.activeBefore.has(el) && !isInside(el, s.input) && !(document.head && isInside(el, document.head))) leaves.push({ node: el, markup: true, seq: 0 });
  for (const l of leaves) l.seq = seqOf(l.node);
  const { sends } = s;
  // what the page added before we pressed send (a greeting finishing its typing animation, a
  // message loading late) is neither ours nor an answer to it
  const firstSend = sends.windows.length ? sends.windows[0].from : null;
  if (firstSend !== null) leaves = leaves.filter((l) => l.seq > firstSend);
  const out: Reading = { leaves: [], ours: null, mine: [], groups: [], attribution: 'uncertain', reason: 'nothing new appeared on the page' };
  if (!leaves.length) return out;
  // ours: the smallest subtree holding what appeared on send, grown while it takes in nothing later
  let sent = leaves.filter((l) => sends.has(l.seq));
  // nothing of what appeared on send is there any more: the page drew its list again (from the
  // conversation it keeps). Our message is then the same words that appeared on send, drawn again
  const drawn = new Set(sends.windows.flatMap((w) => w.texts));
  const redrawn = !sent.length && drawn.size > 0;
  if (redrawn) sent = leaves.filter((l) => !l.markup && drawn.has(l.text ?? ''));
  // a page that answers within the same task as our send (a scripted bot) adds both bubbles at
  // once: when what appeared spans several messages the page marks as the user's and the bot's,
  // only the user's are ours, and the bot's count as the answer
  const answeredAtOnce = new Set<Leaf>();
  const topEl = sent.length > 1 ? elementOf(lca(sent.map((l) => l.node))) : null;
  if (topEl) {
    const byChild = new Map<Node, Leaf[]>();
    let loose = false;
    for (const l of sent) {
      const c = childOf(topEl, l.node);
      if (!c || !isElement(c)) { loose = true; continue; }
      byChild.set(c, [...(byChild.get(c) ?? []), l]);
    }
    const sides = loose ? [] : Array.from(byChild.keys()).map((c) => sideOf(c, topEl));
    if (byChild.size > 1 && sides.includes('user') && sides.includes('bot')) {
      Array.from(byChild.values()).forEach((ls, i) => { if (sides[i] === 'bot') for (const l of ls) answeredAtOnce.add(l); });
      sent = sent.filter((l) => !answeredAtOnce.has(l));
    }
  }
  let ours: Element | null = null;
  let blob = false;
  if (sent.length) {
    ours = elementOf(lca(sent.map((l) => l.node)));
    // drawn again, what our message rendered (its images, its links) is as new as its words: only words tell
    const later = leaves.filter((l) => (!sends.has(l.seq) || answeredAtOnce.has(l)) && !sent.includes(l) && !(redrawn && l.markup));
    if (ours && later.some((l) => isInside(l.node, ours!))) blob = true;
    else if (ours) {
      for (let up = parentOf(ours); up && up !== document.body && up !== document.documentElement && !isInside(s.input, up) && !later.some((l) => isInside(l.node, up!)); up = parentOf(up)) ours = up;
    }
  }
  let rest = blob ? leaves : leaves.filter((l) => !(ours && isInside(l.node, ours)));
  // elements the page itself adds elsewhere (a script chunk loaded late, a pixel) are not the
  // answer's: with text to place the conversation, markup counts only where the messages are
  const said = rest.filter((l) => !l.markup);
  if (said.length) {
    const area = elementOf(lca(said.map((l) => l.node).concat(ours ? [ours] : [])));
    rest = rest.filter((l) => !l.markup || (area && isInside(l.node, area)));
  }
  out.ours = blob ? null : ours;
  if (!rest.length) return { ...out, reason: 'only our message appeared' };
  // the list: where the new messages went; its children holding new content are the messages
  let list = lca(ours ? rest.map((l) => l.node).concat([ours]) : rest.map((l) => l.node));
  if (list && (!isElement(list) || rest.some((l) => l.node === list) || list === ours)) list = parentOf(list);
  const byRoot = new Map<Node, Group>();
  for (const l of rest) {
    const root = childOf(list, l.node) || l.node;
    const g = byRoot.get(root) ?? { root, leaves: [], seq: Infinity, side: null };
    byRoot.set(root, g);
    g.leaves.push(l);
    g.seq = Math.min(g.seq, l.seq);
  }
  let groups = Array.from(byRoot.values());
  // an answer comes after the message it answers: a message placed before ours in the list (a
  // greeting that finished loading only once we had sent) is not one
  if (ours && !blob) groups = groups.filter((g) => !before(g.root, ours!));
  if (!groups.length) return { ...out, reason: 'only our message appeared' };
  for (const g of groups) g.side = sideOf(g.root, list);
  if (!ours && groups.length > 1 && groups.every((g) => !g.side) && isElement(list)) {
    // no marks: the side each message sits on in the list
    for (const g of groups) g.side = alignment(g.root, list);
    if (new Set(groups.map((g) => g.side)).size < 2) for (const g of groups) g.side = null;
  }
  let reason: string;
  let certain: boolean;
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
  const lastMine = mine.reduce<Group | null>((a, g) => (!a || before(a.root, g.root) ? g : a), null);
  if (!ours && lastMine) groups = groups.filter((g) => !before(g.root, lastMine.root));
  return { ...out, mine: mine.map((g) => g.root), groups, leaves: groups.flatMap((g) => g.leaves), attribution: certain ? 'bot_message' : 'uncertain', reason };
}

/**
 * What the answer brought into the page, for the record: its elements that load, link or run
 * (bounded), the URLs they load, whether it and our own message can run script, and where
 * each dialog or console line came from (the answer, our message, or unknown).
 */
export function observation(): AnswerReading {
  const r = reading();
  const out: string[] = [];
  let size = 0;
  const urls: string[] = [];
  let scripts = false;
  for (const l of r.leaves) {
    if (!l.markup || !isElement(l.node)) continue;
    urls.push(...urlsOf(l.node));
    if (scriptable(l.node)) scripts = true;
    if (out.length >= 50 || size > 32768) continue;
    const html = l.node.outerHTML.slice(0, 2000);
    out.push(html);
    size += html.length;
  }
  const oursRoots: Node[] = [...(r.ours ? [r.ours] : []), ...r.mine];
  let oursScripts = false;
  const oursUrls: string[] = [];
  // what our message loads: its active elements, and a style's url(...) (a widget rendering our HTML)
  for (const root of oursRoots) {
    for (const el of [...(isElement(root) ? [root] : []), ...elements(root)]) {
      if (!active(el) && !styled(el)) continue;
      oursUrls.push(...urlsOf(el));
      if (scriptable(el)) oursScripts = true;
    }
  }
  const where = (el: Element | null) => {
    if (!el) return 'unknown' as const;
    if (oursRoots.some((root) => isInside(el, root))) return 'ours' as const;
    if (r.groups.some((g) => isInside(el, g.root))) return 'answer' as const;
    return 'page' as const;
  };
  return {
    markup: out.join('\n'),
    attribution: r.attribution,
    reason: r.reason,
    urls: urls.slice(0, 100),
    oursUrls: oursUrls.slice(0, 100),
    scripts,
    oursScripts,
    origins: origins().map((o) => ({ kind: o.kind, detail: o.detail, where: where(o.el) })),
  };
}

/** has the message left the input (input emptied, or something appeared on send) */
export function sent(): boolean {
  const s = now();
  if (!norm(inputText(s.input))) return true;
  flush();
  return s.sends.windows.length > 0 && lastNumber() > s.sends.windows[0].from;
}

/** the answer so far: its text (by structure, or the configured selector's last match), and what holds it open */
export function read(): AnswerSoFar {
  const s = now();
  let indicator = false;
  for (const el of elements(document)) if (!s.indicators.has(el) && isIndicator(el)) { indicator = true; break; }
  const busy = held(s.input);
  if (s.responseSelector) {
    const r = reading();
    const all = deepMatches(s.responseSelector).filter((el) => visible(el) && !(r.ours && isInside(el, r.ours)));
    const last = all[all.length - 1];
    const text = last ? deepText(last) : '';
    const fresh = last && (!s.matched.has(last) || text !== s.lastMatchedText);
    return { text: fresh ? text : '', indicator, busy, ticks: s.ticks };
  }
  const r = reading();
  let text = '';
  let lastBlock: Element | null = null;
  for (const t of r.leaves) {
    if (t.markup) continue;
    let block = t.node.parentElement || parentOf(t.node);
    while (block && parentOf(block) && /^(inline|contents)/.test(getComputedStyle(block).display)) block = parentOf(block);
    text += lastBlock === null ? t.text : block === lastBlock ? ' ' + t.text : '\n' + t.text;
    lastBlock = block;
  }
  return { text: text.trim(), indicator, busy, ticks: s.ticks, attribution: r.attribution, reason: r.reason, markup: r.leaves.some((l) => l.markup) };
}
