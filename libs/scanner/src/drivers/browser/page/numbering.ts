import { elements, visibleTexts } from './dom';

/**
 * Numbering what the page adds: from the first look, a MutationObserver on the document and on
 * every open shadow root numbers each node added (and each text changed) in order. Freshness is
 * then counted, not remembered, and "what appeared while the page handled our send" is a range of
 * numbers (a send window).
 */

let seq = 0;
const addedAt = new WeakMap<Node, number>();
const observed = new WeakSet<Node>();
const observers: MutationObserver[] = [];

const record = (records: MutationRecord[]) => {
  for (const r of records) {
    if (r.type === 'characterData') { if (!addedAt.has(r.target)) addedAt.set(r.target, ++seq); continue; }
    for (const n of Array.from(r.addedNodes)) if (!addedAt.has(n)) addedAt.set(n, ++seq);
  }
};

/** the last number given */
export const lastNumber = (): number => seq;

/** observes the document and every open shadow root not observed yet */
export const observeAll = (): void => {
  const roots: Node[] = [document];
  for (const el of elements(document)) if (el.shadowRoot) roots.push(el.shadowRoot);
  for (const root of roots) {
    if (observed.has(root)) continue;
    observed.add(root);
    const o = new MutationObserver(record);
    o.observe(root, { childList: true, subtree: true, characterData: true });
    observers.push(o);
  }
};

/** numbers what the observers hold and have not reported yet */
export const flush = (): void => { for (const o of observers) record(o.takeRecords()); };

/** when a node came: its own number, its nearest numbered ancestor's, or now (a root we observed late) */
export const seqOf = (node: Node): number => {
  for (let a: Node | null = node; a; a = a.parentNode instanceof ShadowRoot ? a.parentNode.host : a.parentNode) { const n = addedAt.get(a); if (n !== undefined) return n; }
  addedAt.set(node, ++seq);
  return seq;
};

/** What the page added while it handled one send (the click, the key, the submit, up to its next task). */
export interface SendWindow {
  from: number;
  to: number | null;
  /** the words that appeared then, to know our message again when the page draws its list anew */
  texts: string[];
}

/** The sends of one message: each trusted click, key or submit opens a window until the page's next task. */
export class Sends {
  readonly windows: SendWindow[] = [];
  private open: SendWindow | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** a trusted event that may send: what the page adds until its next task is its handling of our message, before any answer could come */
  note(): void {
    flush();
    if (!this.open || this.open.to !== null) this.windows.push((this.open = { from: seq, to: null, texts: [] }));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      flush();
      const w = this.open;
      if (!w) return;
      w.to = seq;
      w.texts = visibleTexts(document).filter((t) => { const n = seqOf(t.node); return n > w.from && n <= (w.to ?? seq); }).map((t) => t.text).slice(0, 50);
    }, 0);
  }

  has(n: number): boolean {
    return this.windows.some((w) => n > w.from && (w.to === null || n <= w.to));
  }
}

/** listens, before the page's own handlers, for what may send a message */
export function watchSends(current: () => Sends | null): void {
  const onEvent = (e: Event) => { if (e.isTrusted) current()?.note(); };
  for (const type of ['click', 'keydown', 'keypress', 'keyup', 'submit', 'pointerup', 'mouseup']) window.addEventListener(type, onEvent, true);
}
