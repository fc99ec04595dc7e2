import { isElement, parentOf, visibleTexts } from './dom';
import type { Side } from './api';

/** Whose a message is: by the words its roles, classes and ids use, else by the side of the list it sits on. */

const USER_WORDS = new Set(['user', 'human', 'me', 'mine', 'self', 'own', 'outgoing', 'outbound', 'sent', 'guest', 'visitor', 'customer', 'question', 'right']);
const BOT_WORDS = new Set(['bot', 'assistant', 'ai', 'agent', 'incoming', 'inbound', 'received', 'host', 'model', 'llm', 'answer', 'response', 'reply', 'operator', 'left']);

const wordsOf = (el: Element): string[] => {
  const parts: (string | null)[] = [el.getAttribute('role'), el.id, typeof el.className === 'string' ? el.className : el.getAttribute('class')];
  for (const a of Array.from(el.attributes)) if (/^(data|aria)-/i.test(a.name) && a.value.length < 40) parts.push(a.name.replace(/^(data|aria)-/i, '') + ' ' + a.value);
  return parts.filter(Boolean).join(' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
};

const sideOfElement = (el: Node | null): Side | null => {
  // a message may be a bare text node, and a walk up may reach the document: neither has marks
  if (!isElement(el)) return null;
  let user = 0, bot = 0;
  for (const w of wordsOf(el)) { if (USER_WORDS.has(w)) user++; if (BOT_WORDS.has(w)) bot++; }
  return user > bot ? 'user' : bot > user ? 'bot' : null;
};

/** the side a message's own marks give it: the message, its wrappers up to the list, then its content, nearest first */
export const sideOf = (root: Node, list: Node | null): Side | null => {
  for (let a: Node | null = root; a && a !== list; a = parentOf(a)) { const s = sideOfElement(a); if (s) return s; }
  let level: Node[] = [root];
  for (let depth = 0; depth < 3 && level.length; depth++) {
    const next: Node[] = [];
    for (const el of level) for (const c of isElement(el) ? Array.from(el.children) : []) { const s = sideOfElement(c); if (s) return s; if (next.length < 40) next.push(c); }
    level = next;
  }
  return null;
};

/** the horizontal side a message sits on in its list, or null when it spans it */
export const alignment = (root: Node, list: Element): Side | null => {
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
  const box = isElement(root) ? root.getBoundingClientRect() : null;
  if (box && box.width > 0 && box.width < lr.width * 0.9) { left = box.left; right = box.right; }
  const before = left - lr.left, after = lr.right - right;
  return before > after + lr.width * 0.1 ? 'user' : after > before + lr.width * 0.1 ? 'bot' : null;
};
