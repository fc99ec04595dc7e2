import { HOMOGLYPHS } from '../converters/encodings';

/**
 * Texts shorter than this (a needle, a sentence) are cached apart from longer ones (an answer), so
 * a rule that folds a needle between two folds of its answer folds the answer once.
 */
const LONG = 256;

/** the last long text asked about and whether it is ASCII: a rule asks it of one answer several times */
let lastAscii: [string, boolean] = ['', true];

/** UTF-8 length equals UTF-16 length only for ASCII; native, but a read of all of a text held in two bytes a character */
const isAsciiNow = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;

/** isAsciiNow(), kept for the last long text: a rule asks it of one answer several times */
function isAscii(text: string): boolean {
  if (text.length < LONG) return isAsciiNow(text);
  if (lastAscii[0] !== text) lastAscii = [text, isAsciiNow(text)];
  return lastAscii[1];
}

/**
 * What fold() makes of each UTF-16 unit after NFKC: 0 dropped (zero-width characters, soft hyphens,
 * NUL), a look-alike's Latin letter, else itself. A table read once per character: a per-character
 * replace callback takes seconds on a multi-megabyte answer of look-alikes.
 */
let FOLDED_UNIT: Uint16Array | null = null;
/** 1 for each unit of a fold that lowercasing may change (alone, or as the first half of a surrogate pair: every one) */
let CASED_UNIT: Uint8Array | null = null;
/** made when a text that is not ASCII is first folded, not when the module loads: every process that judges imports this */
function foldTables(): [Uint16Array, Uint8Array] {
  if (FOLDED_UNIT && CASED_UNIT) return [FOLDED_UNIT, CASED_UNIT];
  const folded = new Uint16Array(65536);
  for (let c = 0; c < 65536; c++) folded[c] = c;
  for (const c of [0xad, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff]) folded[c] = 0;
  for (const [latin, glyph] of Object.entries(HOMOGLYPHS)) folded[glyph.charCodeAt(0)] = latin.charCodeAt(0);
  // whether lowercasing changes a text: asked of each block of 256 units, then of each unit of a block it changes
  // (a call of toLowerCase() for each of 65,536 units takes a tenth of a second)
  const changes = (text: string) => text.toLowerCase() !== text;
  const cased = new Uint8Array(65536);
  const block = new Uint16Array(256);
  for (let first = 0; first < 65536; first += 256) {
    if (first >= 0xd800 && first < 0xe000) continue;
    for (let i = 0; i < 256; i++) block[i] = first + i;
    if (!changes(String.fromCharCode(...block))) continue;
    for (let c = first; c < first + 256; c++) cased[c] = changes(String.fromCharCode(c)) ? 1 : 0;
  }
  // a pair's first half: some astral letters lowercase (Deseret, Adlam), and asking of each pair would cost more than lowercasing
  cased.fill(1, 0xd800, 0xdc00);
  return ([FOLDED_UNIT, CASED_UNIT] = [folded, cased]);
}

/** 1 for JavaScript's `\s`, which squash() drops */
let SPACE: Uint8Array | null = null;
/** made when a long text is first squashed */
function spaceTable(): Uint8Array {
  if (SPACE) return SPACE;
  const table = new Uint8Array(65536);
  const space = /\s/;
  for (let c = 0; c < 65536; c++) if (space.test(String.fromCharCode(c))) table[c] = 1;
  return (SPACE = table);
}

/**
 * The UTF-16 units of `text`, in a Buffer and a view of it, to be changed in place and decoded
 * once (`decoded`): a string read a character at a time into a typed array and decoded by a
 * TextDecoder costs three times more on a multi-megabyte answer. (A Buffer holds UTF-16
 * little-endian, as typed arrays do on every platform but big-endian ones, which Gauntlet is not
 * built for.)
 */
function unitsOf(text: string): [Buffer, Uint16Array] {
  // a short text's from Node's pool (whose slices start 8-byte aligned), a long one's of its own
  const pooled = Buffer.allocUnsafe(text.length * 2);
  const bytes = pooled.byteOffset % 2 === 0 ? pooled : Buffer.allocUnsafeSlow(text.length * 2);
  bytes.write(text, 'utf16le');
  return [bytes, new Uint16Array(bytes.buffer, bytes.byteOffset, text.length)];
}

/** `text` with a surrogate left without its pair made U+FFFD, as a UTF-16 decoder reads it */
const wellFormed = (text: string) => (text.isWellFormed() ? text : text.toWellFormed());

/** the first `n` units of `bytes`, decoded */
const decoded = (bytes: Buffer, n: number) => wellFormed(bytes.toString('utf16le', 0, 2 * n));

/** NFKC'd `text` through the fold's table, in one pass; `cased`: whether lowercasing may change it */
function foldUnits(text: string): { text: string; cased: boolean } {
  const [folded, casedUnit] = foldTables();
  const [bytes, units] = unitsOf(text);
  let n = 0;
  let cased = 0;
  let changed = 0;
  for (let i = 0; i < units.length; i++) {
    const unit = folded[units[i]];
    cased |= casedUnit[unit];
    changed |= unit ^ units[i];
    if (unit !== 0) units[n++] = unit;
  }
  return { text: changed === 0 && n === units.length ? wellFormed(text) : decoded(bytes, n), cased: cased !== 0 };
}

/** `folded` without JavaScript's `\s`, in one pass (a fold is well formed: no surrogate loses its pair) */
function withoutSpaces(folded: string): string {
  const space = spaceTable();
  const [bytes, units] = unitsOf(folded);
  let n = 0;
  for (let i = 0; i < units.length; i++) {
    const unit = units[i];
    if (space[unit] === 0) units[n++] = unit;
  }
  return n === units.length ? folded : bytes.toString('utf16le', 0, 2 * n);
}

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
    if (isAsciiNow(normal)) {
      // compatibility forms of ASCII (full-width letters, an ellipsis, ligatures): folded as ASCII is, but for NUL, which the table drops
      out = (normal.includes('\0') ? normal.replaceAll('\0', '') : normal).toLowerCase();
    } else {
      // lowercasing changes nothing in a text without cased letters (most scripts, emoji) and costs as much as the pass
      const mapped = foldUnits(normal);
      out = mapped.cased ? mapped.text.toLowerCase() : mapped.text;
    }
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
  // a long one in one pass over a table: a regex replace of every run of spaces costs ten times more on `a a a …`
  const out = withoutSpaces(fold(text));
  lastSquash = [text, out];
  return out;
}

/** the prompts last compared with and their squash: a rule asks about many fragments of one answer against the same prompts */
let lastPrompts: [string, string] = ['', ''];

/** True when `fragment` was already in what we sent: an echo proves nothing. */
export function echoed(fragment: string, prompts: string): boolean {
  if (lastPrompts[0] !== prompts) lastPrompts = [prompts, fold(prompts).replace(/\s+/g, '')];
  // nothing sent (the Live Agent Monitor's case) holds only what squashes to nothing, and an ASCII
  // letter or digit never does: a hit of megabytes is not squashed to learn that
  if (lastPrompts[1] === '' && /[A-Za-z0-9]/.test(fragment)) return false;
  return lastPrompts[1].includes(squash(fragment));
}

const INVISIBLE = '[\\s\\u00ad\\u180e\\u200b-\\u200f\\u2060-\\u2064\\ufeff]*';

/** squash(needle) as a pattern, with `between` between its characters */
function tolerantPattern(needle: string, between = INVISIBLE): string {
  return [...squash(needle)].map((c) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join(between);
}

/** the needles last looked for in a fold, and their patterns: a rule looks for one canary in every answer */
let lastSpaced: [string, [RegExp, RegExp[]]] | null = null;

/** squash() of each of `needles` as a pattern over a fold, where only spaces are left to pass over, and any of them as one */
function spacedPatterns(needles: readonly string[]): [RegExp, RegExp[]] {
  const key = JSON.stringify(needles);
  if (lastSpaced?.[0] !== key) {
    const each = needles.map((n) => tolerantPattern(n, '\\s*'));
    lastSpaced = [key, [new RegExp(each.map((p) => `(?:${p})`).join('|')), each.map((p) => new RegExp(p))]];
  }
  return lastSpaced[1];
}

/**
 * The first of `needles` that `text` contains the way squash() compares them (case, spacing
 * and invisible characters ignored), or null. A long ASCII answer is scanned once by a regex
 * instead of being copied.
 */
export function findTolerant(text: string, needles: readonly string[]): string | null {
  if (needles.length === 0) return null;
  if (!isAscii(text)) {
    // squash(text) holds squash(n) where fold(text) holds its characters with only spaces between: read so, the fold is not copied again
    const folded = fold(text);
    const [any, each] = spacedPatterns(needles);
    // one read for an answer that holds none of them (the common case), then the first in the needles' order
    if (!any.test(folded)) return null;
    return needles.find((_, i) => each[i].test(folded)) ?? null;
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
