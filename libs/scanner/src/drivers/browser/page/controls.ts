import { deepMatches, elements, isInside, labelOf, norm, parentOf, visible } from './dom';
import type { FoundInput } from './api';

/** Finding a chat's controls on a page nobody described to us: its input, its send control, the launcher of a closed widget. */

const CHAT_WORDS = /message|chat|ask|type|question|prompt|write|say|talk|reply|query|compose|conversation/i;
const AVOID_WORDS = /search|e-?mail|password|log ?in|sign ?(in|up)|subscribe|newsletter|coupon|promo|phone|user ?name/i;
const SEND_WORDS = /\bsend\b|submit|senden|enviar|envoyer|invia|➤|➢|⮕|paper-?plane/i;
const WEAK_SEND_WORDS = /\bask\b|\bgo\b|arrow|↑|→/i;
export const NOT_SEND_WORDS = /attach|upload|file|emoji|mic|voice|record|speech|clear|close|minimi|menu|setting|stop|new chat|reset|delete|copy|like|feedback|expand|toggle|scroll/i;
const INDICATOR_WORDS = /typing|loading|loader|thinking|spinner|pending|dots|writing|generating|bouncing|ellipsis/i;
const LAUNCHER_WORDS = /chat|message|help|support|talk|assistant|bot|conversation|ask/i;

type Field = HTMLInputElement | HTMLTextAreaElement;

const editable = (el: Element): boolean => {
  if (el.tagName === 'TEXTAREA') return !(el as Field).disabled && !(el as Field).readOnly;
  if (el.tagName === 'INPUT') return ['text', 'search', ''].includes((el.getAttribute('type') || '').toLowerCase()) && !(el as Field).disabled && !(el as Field).readOnly;
  if ((el as HTMLElement).isContentEditable) return !(el.parentElement && el.parentElement.isContentEditable);
  return el.getAttribute('role') === 'textbox';
};

const inputScore = (el: Element): number => {
  const label = labelOf(el);
  let score = 0;
  if (CHAT_WORDS.test(label)) score += 4;
  if (AVOID_WORDS.test(label)) score -= 6;
  if (el.tagName === 'TEXTAREA' || (el as HTMLElement).isContentEditable || el.getAttribute('role') === 'textbox') score += 2;
  if ((el.getAttribute('type') || '').toLowerCase() === 'search') score -= 3;
  const r = el.getBoundingClientRect();
  if (r.top > window.innerHeight / 2) score += 1;
  if (r.width < 40 || r.height < 10) score -= 4;
  return score;
};

/** the chat input: the configured selector, else the best-scoring visible editable element */
export function findInput(selector: string | null): FoundInput | null {
  if (selector) { const el = deepMatches(selector).find(visible); return el ? { el, score: 100 } : null; }
  let best: Element | null = null;
  let bestScore = -3;
  for (const el of elements(document)) {
    if (!editable(el) || !visible(el)) continue;
    const score = inputScore(el);
    if (score > bestScore) { best = el; bestScore = score; }
  }
  return best ? { el: best, score: bestScore } : null;
}

const innerText = (el: Element): string => (el as HTMLElement).innerText || '';

/** a send control near the input, or null (the driver then presses Enter) */
export function findSend(input: Element, selector: string | null): Element | null {
  if (selector) return deepMatches(selector).find(visible) || null;
  const ir = input.getBoundingClientRect();
  let best: Element | null = null;
  let bestScore = 2;
  for (const el of elements(document)) {
    if (el === input || isInside(el, input) || !visible(el)) continue;
    const tag = el.tagName;
    const type = (el.getAttribute('type') || '').toLowerCase();
    const label = norm(labelOf(el) + ' ' + innerText(el).slice(0, 40));
    const clickable = tag === 'BUTTON' || el.getAttribute('role') === 'button' || (tag === 'INPUT' && ['submit', 'button', 'image'].includes(type));
    if (!clickable && !SEND_WORDS.test(labelOf(el))) continue;
    if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true') continue;
    let score = 0;
    if (SEND_WORDS.test(label)) score += 6;
    else if (WEAK_SEND_WORDS.test(label)) score += 2;
    if (NOT_SEND_WORDS.test(label)) score -= 8;
    if (type === 'submit') score += 3;
    const form = (input as Field).form;
    if (form && (el as HTMLButtonElement).form === form) score += 3;
    if (!norm(innerText(el)) && el.querySelector('svg, img, i, span')) score += 1;
    if (!clickable) score -= 1;
    const r = el.getBoundingClientRect();
    const dx = r.left + r.width / 2 - (ir.left + ir.width / 2);
    const dy = r.top + r.height / 2 - (ir.top + ir.height / 2);
    score -= Math.hypot(dx, dy) / 250;
    if (score > bestScore) { best = el; bestScore = score; }
  }
  return best;
}

/** a chat launcher bubble to open a closed widget */
export function findLauncher(): Element | null {
  let best: Element | null = null;
  let bestScore = 0;
  for (const el of elements(document)) {
    if (!visible(el)) continue;
    const own = labelOf(el);
    const native = el.tagName === 'BUTTON' || el.getAttribute('role') === 'button' || el.tagName === 'A';
    // many widgets make the bubble a plain div: accept those that look clickable and chat-like
    if (!native && !(LAUNCHER_WORDS.test(own) && getComputedStyle(el).cursor === 'pointer')) continue;
    const label = norm(own + ' ' + innerText(el).slice(0, 40));
    let score = LAUNCHER_WORDS.test(label) ? 3 : 0;
    if (NOT_SEND_WORDS.test(label) && !/toggle/i.test(label)) score -= 3;
    const r = el.getBoundingClientRect();
    if (r.top > window.innerHeight * 0.6 && r.left > window.innerWidth * 0.6) score += 2;
    for (let a: Element | null = el; a; a = parentOf(a)) if (getComputedStyle(a).position === 'fixed') { score += 2; break; }
    if (score > bestScore) { best = el; bestScore = score; }
  }
  return bestScore >= 4 ? best : null;
}

/** a typing indicator, a spinner, something busy */
export function isIndicator(el: Element): boolean {
  if (!visible(el)) return false;
  if (el.getAttribute('aria-busy') === 'true' || el.getAttribute('role') === 'progressbar') return true;
  const label = (typeof el.className === 'string' ? el.className : '') + ' ' + (el.id || '') + ' ' + (el.getAttribute('aria-label') || '');
  return INDICATOR_WORDS.test(label);
}

/** what the input holds */
export const inputText = (el: Element | null): string => (el && (el.tagName === 'TEXTAREA' || el.tagName === 'INPUT') ? (el as Field).value : norm(el && (el as HTMLElement).innerText));

/** the chat input is held while the bot answers (disabled or read-only since we typed in it) */
export const held = (el: Element | null): boolean => Boolean(el && el.isConnected && ((el as Field).disabled || (el as Field).readOnly || el.getAttribute('aria-disabled') === 'true'));

/** text inside a button (its label, not a message) */
export const inButton = (n: Node): boolean => {
  for (let a = n.parentElement ? n.parentElement : parentOf(n), i = 0; a && i < 4; a = parentOf(a), i++) if (a.tagName === 'BUTTON' || a.getAttribute('role') === 'button') return true;
  return false;
};
