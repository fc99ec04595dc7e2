// DOM building without innerHTML: every string becomes a text node, so whatever the API returns
// (findings quote attacker prompts and <script> tags) is shown as text and never parsed as markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** what h() and fill() take as children: nodes, text, nothing (null/undefined/false) or lists of them */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** attributes of h(): `on` holds event listeners, `dataset` data-* values; null/undefined/false leave one out */
export interface Attrs {
  on?: Record<string, (event: Event) => unknown>;
  dataset?: Record<string, string>;
  [attribute: string]: unknown;
}

function append(el: Element, children: readonly Child[]): void {
  for (const child of (children as Child[]).flat(Infinity as 1) as Child[]) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function applyAttrs(el: HTMLElement, attrs: Attrs | null | undefined): void {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'on') {
      for (const [type, fn] of Object.entries(value as Record<string, EventListener>)) el.addEventListener(type, fn);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key === 'checked') {
      // also the default, so form.reset() comes back to it
      const input = el as HTMLInputElement;
      input.checked = input.defaultChecked = Boolean(value);
    } else if (key === 'value' || key === 'selected' || key === 'hidden' || key === 'disabled') {
      (el as unknown as Record<string, unknown>)[key] = value;
    } else if (key === 'style') {
      throw new Error('inline styles are refused by the CSP; use a class or el.style');
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

/** h('p', {class: 'x'}, 'text', child): an element; attrs may hold `on: {click}` and `dataset` */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Record<string, unknown> | null, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

export function clear<E extends Element>(el: E): E {
  el.replaceChildren();
  return el;
}

/** replaces the children of el, skipping null/false like h() does (native append would print "null") */
export function fill<E extends Element>(el: E, ...children: Child[]): E {
  el.replaceChildren();
  append(el, children);
  return el;
}

let uid = 0;
export const nextId = (prefix: string): string => `${prefix}-${++uid}`;
