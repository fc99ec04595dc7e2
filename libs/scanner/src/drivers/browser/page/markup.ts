import { isElement } from './dom';

/** Elements that load, link or run something: what an answer must not bring into a page. */

const ACTIVE_TAGS = new Set(['SCRIPT', 'IMG', 'IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'VIDEO', 'AUDIO', 'SOURCE', 'FORM', 'LINK', 'META', 'BASE', 'svg', 'SVG']);

export const active = (el: Element): boolean => {
  if (ACTIVE_TAGS.has(el.tagName)) return true;
  if (el.tagName === 'A' && el.getAttribute('href')) return true;
  for (const a of Array.from(el.attributes)) if (/^on/i.test(a.name) || /^\s*(?:javascript|data|vbscript):/i.test(a.value)) return true;
  return false;
};

/** a style that loads what its url(...) names (a background image) */
export const styled = (el: Element): boolean => /url\(/i.test(el.getAttribute('style') || '');

/** elements that can run script (not only load or link): what a dialog, a console line or a title needs */
export const scriptable = (el: Node): boolean => {
  if (!isElement(el)) return false;
  if (el.tagName === 'SCRIPT' || el.tagName === 'OBJECT' || el.tagName === 'EMBED') return true;
  if (el.tagName === 'IFRAME' && el.getAttribute('srcdoc')) return true;
  for (const a of Array.from(el.attributes)) if (/^on/i.test(a.name) || /^\s*(?:javascript|vbscript):/i.test(a.value)) return true;
  return false;
};

const URL_ATTRS = ['src', 'href', 'srcset', 'poster', 'data', 'action', 'formaction', 'xlink:href', 'background'];

/** the addresses an element loads or links, absolute */
export const urlsOf = (el: Node): string[] => {
  if (!isElement(el)) return [];
  const out: string[] = [];
  const absolute = (part: string) => { try { out.push(new URL(part, document.baseURI).href); } catch { /* not a URL: nothing loads */ } };
  for (const name of URL_ATTRS) {
    const v = el.getAttribute(name);
    if (!v) continue;
    for (const part of name === 'srcset' ? v.split(',').map((p) => p.trim().split(/\s+/)[0]) : [v.trim()]) absolute(part);
  }
  const style = el.getAttribute('style');
  if (style) for (const m of Array.from(style.matchAll(/url\(\s*['"]?([^'")\s]+)/gi))) absolute(m[1]);
  return out;
};
