import { HOMOGLYPHS } from '../converters/encodings';

const ZERO_WIDTH = /[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]/g;
const LATIN_OF = new Map(Object.entries(HOMOGLYPHS).map(([latin, glyph]) => [glyph, latin]));
/** UTF-8 length equals UTF-16 length only for ASCII; native, so cheap on long answers. */
const isAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;
const GLYPHS = new RegExp(`[${Object.values(HOMOGLYPHS).join('')}]`, 'g');

/** Case-, width-, homoglyph- and zero-width-insensitive form of a text, for matching. */
export function fold(text: string): string {
  // NFKC is the slow step on long answers and changes nothing in plain ASCII
  return (isAscii(text) ? text : text.normalize('NFKC')).replace(ZERO_WIDTH, '').replace(GLYPHS, (ch) => LATIN_OF.get(ch) ?? ch).toLowerCase();
}

/** fold() without any whitespace, so "AB CD" and "ab\ncd" match "abcd". */
export const squash = (text: string): string => fold(text).replace(/\s+/g, '');

/** True when `fragment` was already in what we sent: an echo proves nothing. */
export function echoed(fragment: string, prompts: string): boolean {
  return squash(prompts).includes(squash(fragment));
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
