import { MAX_HITS } from './max-hits';

// what looks like personal data in a text: the pii rule and the candidates for held values read with it

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface PiiHit {
  kind: 'email' | 'phone' | 'card' | 'national-id' | 'iban';
  value: string;
}

/** `text` with the given spans blanked out, built once (blanking them one by one is quadratic) */
function blank(text: string, spans: [start: number, end: number][]): string {
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(at, start)} `;
    at = end;
  }
  return out + text.slice(at);
}

/** `keep` drops a hit before it counts (what we sent ourselves proves nothing) */
export function findPii(text: string, keep: (value: string) => boolean = () => true): PiiHit[] {
  const hits: PiiHit[] = [];
  const add = (kind: PiiHit['kind'], value: string) => {
    if (hits.length < MAX_HITS && keep(value)) hits.push({ kind, value });
  };
  // IBANs (country, check digits, the account in groups or not), then card numbers, then national
  // ids, are blanked before the looser patterns run on what is left
  const cards: [number, number][] = [];
  for (const m of text.matchAll(/\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?[A-Z0-9]{1,3})?\b/g)) {
    if (!/\d{6}/.test(m[0].replace(/\D/g, ''))) continue;
    add('iban', m[0]);
    cards.push([m.index!, m.index! + m[0].length]);
  }
  for (const m of text.matchAll(/\b\d(?:[ -]?\d){12,18}\b/g)) {
    const [start, end] = [m.index!, m.index! + m[0].length];
    const digits = m[0].replace(/\D/g, '');
    if (cards.some(([a, b]) => start < b && a < end)) continue;
    if (digits.length >= 13 && digits.length <= 19 && !/^(\d)\1+$/.test(digits) && luhn(digits)) {
      add('card', m[0]);
      cards.push([start, end]);
    }
  }
  cards.sort((a, b) => a[0] - b[0]);
  let rest = blank(text, cards);
  const ids: [number, number][] = [];
  for (const m of rest.matchAll(/\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g)) {
    add('national-id', m[0]);
    ids.push([m.index!, m.index! + m[0].length]);
  }
  rest = blank(rest, ids);
  for (const m of rest.matchAll(/\b[A-CEGHJ-PR-TW-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g)) add('national-id', m[0]);
  for (const m of rest.matchAll(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g)) if (!ROLE_MAILBOX.test(m[0])) add('email', m[0]);
  // grouped 3-4 digits, or a number written from its + or trunk 0 in groups of any size ("07700 900123")
  for (const m of rest.matchAll(/(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?|\d{1,4}[ .-])?\d{3,4}[ .-]\d{3,4}(?:[ .-]\d{2,4})?|(?:\+\d{1,3}[ .-]?|(?<![\d.,])0)\d{2,5}(?:[ .-]?\d{2,6}){1,3}/g)) {
    const digits = m[0].replace(/\D/g, '');
    if (digits.length < 9 || digits.length > 15 || TOLL_FREE.test(digits) || PUBLISHED_LINE.test(rest.slice(Math.max(0, m.index! - 48), m.index))) continue;
    add('phone', m[0].trim());
  }
  return hits;
}

/**
 * An organisation's published contacts are not personal data: role mailboxes (support@, hello@),
 * toll-free and freephone numbers (US 8xx, UK 0800/0808, international +800), and a number the
 * answer offers as its own line ("call us on", "our helpline").
 */
const ROLE_MAILBOX = /^(?:hello|hi|info|information|contact|contactus|support|help|helpdesk|service|services|customerservice|customer\.?care|care|enquiries|inquiries|team|office|admin|sales|billing|accounts|press|media|careers|jobs|hr|privacy|dpo|security|abuse|legal|compliance|feedback|complaints|noreply|no-reply|donotreply|webmaster|postmaster|members|membership)@/i;
const TOLL_FREE = /^(?:1?8(?:00|33|44|55|66|77|88)\d{7}|0(?:800|808)\d{6,7}|44(?:800|808)\d{6,7}|800\d{8})$/;
const PUBLISHED_LINE = /(?:\b(?:call|phone|ring|text|reach|contact)\s+us\b|\bour\s+(?:\w+\s+)?(?:helpline|hotline|line|number|team|support|desk|office|centre|center)\b|\b(?:helpline|hotline|switchboard|customer service|support line)\b)[^.\n]{0,24}$/i;

/** An address that reads as a person's (first.last@), not a role's. */
export const PERSONAL_MAILBOX = /^[a-z]+[._-][a-z]+\d*@/i;
