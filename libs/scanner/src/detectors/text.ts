import { HOMOGLYPHS } from '../converters/encodings';

/** UTF-8 length equals UTF-16 length only for ASCII; native, so cheap on long answers. */
const isAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;

/**
 * What fold() makes of each UTF-16 unit after NFKC: 0 dropped (zero-width and soft hyphens), a
 * look-alike's Latin letter, else itself. A table read once per character: a per-character replace
 * callback takes seconds on a multi-megabyte answer of look-alikes.
 */
const FOLDED_UNIT = Uint16Array.from({ length: 65536 }, (_, c) => c);
for (const c of [0xad, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff]) FOLDED_UNIT[c] = 0;
for (const [latin, glyph] of Object.entries(HOMOGLYPHS)) FOLDED_UNIT[glyph.charCodeAt(0)] = latin.charCodeAt(0);
const UTF16 = new TextDecoder('utf-16le');

/** JavaScript's `\s`, as a table: what squash() drops from a long text, read once per character */
let SPACE: Uint8Array | null = null;
/** made when a long text is first squashed, not when the module loads: every process that judges imports it */
function spaceTable(): Uint8Array {
  if (SPACE) return SPACE;
  const table = new Uint8Array(65536);
  const space = /\s/;
  for (let c = 0; c < 65536; c++) if (space.test(String.fromCharCode(c))) table[c] = 1;
  return (SPACE = table);
}

/**
 * Texts shorter than this (a needle, a sentence) are cached apart from longer ones (an answer), so
 * a rule that folds a needle between two folds of its answer folds the answer once.
 */
const LONG = 256;

/** the last long text folded and its fold, and the last short one: a rule folds the same answer several times */
let lastFold: [string, string] = ['', ''];
let lastShortFold: [string, string] = ['', ''];

/** Case-, width-, homoglyph- and zero-width-insensitive form of a text, for matching. */
export function fold(text: string): string {
  const last = text.length >= LONG ? lastFold : lastShortFold;
  if (last[0] === text) return last[1];
  let out: string;
  // NFKC is the slow step on long answers and changes nothing in plain ASCII
  if (isAscii(text)) out = text.toLowerCase();
  else {
    const normal = text.normalize('NFKC');
    const units = new Uint16Array(normal.length);
    let n = 0;
    for (let i = 0; i < normal.length; i++) {
      const unit = FOLDED_UNIT[normal.charCodeAt(i)];
      if (unit !== 0) units[n++] = unit;
    }
    out = UTF16.decode(units.subarray(0, n)).toLowerCase();
  }
  if (text.length >= LONG) lastFold = [text, out];
  else lastShortFold = [text, out];
  return out;
}

/** the last long text squashed and its squash, and the last short one */
let lastSquash: [string, string] = ['', ''];
let lastShortSquash: [string, string] = ['', ''];

/** fold() without any whitespace, so "AB CD" and "ab\ncd" match "abcd". */
export function squash(text: string): string {
  if (text.length < LONG) {
    // a short text (a sentence, a value) by a regex replace: a typed array and a decoder cost more than it saves
    if (lastShortSquash[0] !== text) lastShortSquash = [text, fold(text).replace(/\s+/g, '')];
    return lastShortSquash[1];
  }
  if (lastSquash[0] === text) return lastSquash[1];
  const folded = fold(text);
  // a long one in one pass over a table: a regex replace of every run of spaces costs ten times more on `a a a …`
  const space = spaceTable();
  const units = new Uint16Array(folded.length);
  let n = 0;
  for (let i = 0; i < folded.length; i++) {
    const unit = folded.charCodeAt(i);
    if (space[unit] === 0) units[n++] = unit;
  }
  // fold() leaves no lone surrogate, so decoding the units gives them back as they were
  const out = n === folded.length ? folded : UTF16.decode(units.subarray(0, n));
  lastSquash = [text, out];
  return out;
}

/** the prompts last compared with and their squash: a rule asks about many fragments of one answer against the same prompts */
let lastPrompts: [string, string] = ['', ''];

/** True when `fragment` was already in what we sent: an echo proves nothing. */
export function echoed(fragment: string, prompts: string): boolean {
  if (lastPrompts[0] !== prompts) lastPrompts = [prompts, fold(prompts).replace(/\s+/g, '')];
  return lastPrompts[1].includes(squash(fragment));
}

const INVISIBLE = '[\\s\\u00ad\\u180e\\u200b-\\u200f\\u2060-\\u2064\\ufeff]*';

function tolerantPattern(needle: string): string {
  return [...squash(needle)].map((c) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join(INVISIBLE);
}

/**
 * The first of `needles` that `text` contains the way squash() compares them (case, spacing
 * and invisible characters ignored), or null. A long ASCII answer is scanned once by a regex
 * instead of being copied.
 */
export function findTolerant(text: string, needles: readonly string[]): string | null {
  if (needles.length === 0) return null;
  if (!isAscii(text)) {
    const folded = squash(text);
    return needles.find((n) => folded.includes(squash(n))) ?? null;
  }
  const m = new RegExp(needles.map((n) => `(${tolerantPattern(n)})`).join('|'), 'i').exec(text);
  return m ? needles[m.slice(1).findIndex((g) => g !== undefined)] : null;
}

export function containsTolerant(text: string, needle: string): boolean {
  return findTolerant(text, [needle]) !== null;
}

/**
 * Where `needle` is in `text`, compared the way squash() compares (case, spacing and invisible
 * characters ignored): [start, end) in `text`, or null.
 */
export function spanTolerant(text: string, needle: string): [number, number] | null {
  const exact = text.indexOf(needle);
  if (exact >= 0) return [exact, exact + needle.length];
  if (!squash(needle)) return null;
  if (isAscii(text)) {
    const m = new RegExp(tolerantPattern(needle), 'i').exec(text);
    return m ? [m.index, m.index + m[0].length] : null;
  }
  const lower = fold(text);
  const at = lower.indexOf(fold(needle));
  return at >= 0 && lower.length === text.length ? [at, at + needle.length] : null;
}
