import { MAX_HITS } from './max-hits';

// what looks like personal data in a text: the pii rule and the candidates for held values read with it

export function luhn(digits: string): boolean {
  return luhnOf(digits).valid;
}

/**
 * Luhn's check over the digits of a written number (spaces and dashes between them), how many digits
 * it has and whether they are one digit repeated, in one pass: a hostile answer can hold a candidate
 * every few characters.
 */
function luhnOf(written: string): { valid: boolean; digits: number; oneDigit: boolean } {
  let sum = 0;
  let digits = 0;
  let first = -1;
  let oneDigit = true;
  for (let i = written.length - 1; i >= 0; i--) {
    const c = written.charCodeAt(i) - 48;
    if (c < 0 || c > 9) continue;
    if (first < 0) first = c;
    else if (c !== first) oneDigit = false;
    sum += digits % 2 === 1 ? (c * 2 > 9 ? c * 2 - 9 : c * 2) : c;
    digits++;
  }
  return { valid: sum % 10 === 0, digits, oneDigit };
}

/** how many digits `text` holds */
function digitCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
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
  const full = () => hits.length >= MAX_HITS;
  // IBANs (country, check digits, the account in groups or not), then card numbers, then national
  // ids, are blanked before the looser patterns run on what is left
  const ibans: [number, number][] = [];
  for (const m of text.matchAll(/\b[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){2,7}(?:[ -]?[A-Z0-9]{1,3})?\b/g)) {
    if (!/\d{6}/.test(m[0].replace(/\D/g, ''))) continue;
    add('iban', m[0]);
    if (full()) return hits;
    ibans.push([m.index!, m.index! + m[0].length]);
  }
  const cards = [...ibans];
  // both in order: the IBANs a number could overlap are read once, not all of them for each number
  let iban = 0;
  for (const m of text.matchAll(/\b\d(?:[ -]?\d){12,18}\b/g)) {
    const [start, end] = [m.index!, m.index! + m[0].length];
    while (iban < ibans.length && ibans[iban][1] <= start) iban++;
    if (iban < ibans.length && ibans[iban][0] < end) continue;
    const { valid, digits, oneDigit } = luhnOf(m[0]);
    if (digits >= 13 && digits <= 19 && !oneDigit && valid) {
      add('card', m[0]);
      if (full()) return hits;
      cards.push([start, end]);
    }
  }
  cards.sort((a, b) => a[0] - b[0]);
  let rest = blank(text, cards);
  const ids: [number, number][] = [];
  for (const m of rest.matchAll(/\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b/g)) {
    add('national-id', m[0]);
    if (full()) return hits;
    ids.push([m.index!, m.index! + m[0].length]);
  }
  rest = blank(rest, ids);
  for (const m of rest.matchAll(/\b[A-CEGHJ-PR-TW-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g)) {
    add('national-id', m[0]);
    if (full()) return hits;
  }
  for (const address of emailAddresses(rest)) {
    if (!ROLE_MAILBOX.test(address)) add('email', address);
    if (full()) return hits;
  }
  // grouped 3-4 digits, or a number written from its + or trunk 0 in groups of any size ("07700 900123")
  for (const m of rest.matchAll(/(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?|\d{1,4}[ .-])?\d{3,4}[ .-]\d{3,4}(?:[ .-]\d{2,4})?|(?:\+\d{1,3}[ .-]?|(?<![\d.,])0)\d{2,5}(?:[ .-]?\d{2,6}){1,3}/g)) {
    const count = digitCount(m[0]);
    if (count < 9 || count > 15 || TOLL_FREE.test(m[0].replace(/\D/g, '')) || PUBLISHED_LINE.test(rest.slice(Math.max(0, m.index! - 48), m.index))) continue;
    add('phone', m[0].trim());
    if (full()) return hits;
  }
  return hits;
}

/** 1 for each character of an address's name, all ASCII: a table looked up inline */
const NAME_CHAR = Uint8Array.from({ length: 128 }, (_, c) => (/[A-Za-z0-9._%+-]/.test(String.fromCharCode(c)) ? 1 : 0));
/** whether the character at `i` can be part of an address's name */
const inName = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c < 128 && NAME_CHAR[c] === 1;
};

/**
 * The e-mail addresses `[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}` matches, in order, found from
 * each `@` instead of from every character: the domain as the pattern reads it from the `@` (DOMAIN),
 * the name the run before the `@`. Neither run holds an `@`, so each stretch of text is read at most
 * twice (a backtracking engine reads a run without `@` from each of its characters: seconds for
 * 40,000 of them).
 */
export function* emailAddresses(text: string): Generator<string> {
  const found: [start: number, end: number] = [0, 0];
  for (let at = nextAddress(text, 0, 0, found); at >= 0; at = nextAddress(text, at + 1, found[1], found)) yield text.slice(found[0], found[1]);
}

/**
 * The pattern's part from the `@` on: the domain's run, backed off to its last dot that has a
 * character before it and two letters after it. Found by the engine, which skips to each `@` and
 * walks the run in native code: a loop here costs several times as much a character on a text of
 * `@`s a few characters apart.
 */
const DOMAIN = /@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/**
 * The `@` of the first address from `from` on (its name begun at `taken` or later), its span put in
 * `found`; -1 when there is none. A plain function the generator resumes from once per address (a
 * text of millions of `@`s ran through the generator's own loop at twice the cost).
 */
function nextAddress(text: string, from: number, taken: number, found: [number, number]): number {
  DOMAIN.lastIndex = from;
  for (let m = DOMAIN.exec(text); m; m = DOMAIN.exec(text)) {
    const at = m.index;
    let start = at;
    while (start > taken && inName(text, start - 1)) start--;
    // no name before it: the next `@` is past this domain, which holds none
    if (start === at) continue;
    found[0] = start;
    found[1] = DOMAIN.lastIndex;
    return at;
  }
  return -1;
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
