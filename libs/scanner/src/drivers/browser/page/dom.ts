/** Walking a page as a visitor sees it: open shadow roots included, hidden and non-text parts left out. */

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'INPUT', 'SELECT', 'OPTION', 'SVG', 'svg', 'HEAD', 'TITLE']);

export const norm = (s: unknown): string => String(s || '').replace(/\s+/g, ' ').trim();

export const isElement = (n: Node | null | undefined): n is Element => Boolean(n && n.nodeType === Node.ELEMENT_NODE);

/** a node's parent, a shadow root's host standing for the root */
export const parentOf = (n: Node): Element | null => (n.parentNode instanceof ShadowRoot ? n.parentNode.host : n.parentElement);

export const isInside = (n: Node, root: Node): boolean => {
  for (let a: Node | null = n; a; a = parentOf(a)) if (a === root) return true;
  return false;
};

export const visible = (el: Element | null | undefined): boolean => {
  if (!el || !el.isConnected) return false;
  if (el.checkVisibility) return el.checkVisibility({ checkVisibilityCSS: true });
  return el.getClientRects().length > 0;
};

export function* elements(root: Node): Generator<Element> {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode() as Element | null; n; n = walker.nextNode() as Element | null) {
    yield n;
    if (n.shadowRoot) yield* elements(n.shadowRoot);
  }
}

// no filter callback: once a page calls window.open, Chromium refuses to run a TreeWalker's
// callback ("no longer runnable"), so skipped subtrees are stepped over by hand
export function* textNodes(root: Node): Generator<Text> {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  if (isElement(root) && root.shadowRoot) yield* textNodes(root.shadowRoot);
  let n = walker.nextNode();
  while (n) {
    if (isElement(n) && SKIP.has(n.tagName)) {
      n = walker.nextSibling();
      while (!n && walker.parentNode()) n = walker.nextSibling();
      continue;
    }
    if (n.nodeType === Node.TEXT_NODE) yield n as Text;
    else if (isElement(n) && n.shadowRoot) yield* textNodes(n.shadowRoot);
    n = walker.nextNode();
  }
}

export interface VisibleText {
  node: Text;
  text: string;
}

export const visibleTexts = (root: Node): VisibleText[] => {
  const out: VisibleText[] = [];
  for (const t of textNodes(root)) {
    const text = norm(t.data);
    if (text && !(t.parentElement && t.parentElement.isContentEditable) && visible(t.parentElement)) out.push({ node: t, text });
  }
  return out;
};

export const deepText = (el: Node): string => norm(visibleTexts(el).map((t) => t.text).join(' '));
export const deepMatches = (selector: string): Element[] => Array.from(elements(document)).filter((el) => el.matches(selector));

/** what an element is called: its placeholder, labels, name, classes */
export const labelOf = (el: Element): string => {
  const parts: (string | null)[] = ['placeholder', 'aria-label', 'aria-placeholder', 'data-placeholder', 'title', 'name', 'id', 'value', 'alt'].map((a) => el.getAttribute(a));
  if (typeof el.className === 'string') parts.push(el.className);
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of Array.from(labels)) parts.push(l.textContent);
  const by = el.getAttribute('aria-labelledby');
  const root = el.getRootNode() as Document | ShadowRoot;
  if (by) for (const id of by.split(/\s+/)) { const l = root.getElementById && root.getElementById(id); if (l) parts.push(l.textContent); }
  return norm(parts.filter(Boolean).join(' '));
};

/** the lowest common ancestor of nodes */
export const lca = (nodes: readonly Node[]): Node | null => {
  if (!nodes.length) return null;
  const path = (n: Node) => { const out: Node[] = []; for (let a: Node | null = n; a; a = parentOf(a)) out.unshift(a); return out; };
  let common = path(nodes[0]);
  for (const n of nodes.slice(1)) {
    const p = path(n);
    let i = 0;
    while (i < common.length && i < p.length && common[i] === p[i]) i++;
    common = common.slice(0, i);
  }
  return common[common.length - 1] || null;
};

/** the node itself when it is an element, else its parent */
export const elementOf = (n: Node | null): Element | null => (n && !isElement(n) ? parentOf(n) : (n as Element | null));

/** the child of list on the way to node (node itself when it is one) */
export const childOf = (list: Node | null, node: Node): Node | null => {
  for (let a: Node | null = node; a; a = parentOf(a)) if (parentOf(a) === list) return a;
  return null;
};

/** a is placed before b in the page (neither holding the other, both in one tree) */
export const before = (a: Node, b: Node): boolean => {
  const p = b.compareDocumentPosition(a);
  return Boolean(p & Node.DOCUMENT_POSITION_PRECEDING) && !(p & (Node.DOCUMENT_POSITION_CONTAINS | Node.DOCUMENT_POSITION_DISCONNECTED));
};
