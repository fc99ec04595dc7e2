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

// several rules squash the same (possibly very long) answer in one judgement
let lastText = '';
let lastSquashed = '';

/** fold() without any whitespace, so "AB CD" and "ab\ncd" match "abcd". */
export function squash(text: string): string {
  if (text !== lastText) {
    lastText = text;
    lastSquashed = fold(text).replace(/\s+/g, '');
  }
  return lastSquashed;
}

/** True when `fragment` was already in what we sent: an echo proves nothing. */
export function echoed(fragment: string, prompts: string): boolean {
  return squash(prompts).includes(squash(fragment));
}

const INVISIBLE = '[\\s\\u00ad\\u180e\\u200b-\\u200f\\u2060-\\u2064\\ufeff]*';
const matchers = new Map<string, RegExp>();

/**
 * Whether `text` contains `needle` the way squash() compares them (case, spacing and invisible
 * characters ignored), without copying a long ASCII answer: a regex over it instead.
 */
export function containsTolerant(text: string, needle: string): boolean {
  if (!isAscii(text)) return squash(text).includes(squash(needle));
  let re = matchers.get(needle);
  if (!re) {
    const chars = [...squash(needle)].map((c) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'));
    re = new RegExp(chars.join(INVISIBLE), 'i');
    matchers.set(needle, re);
  }
  return re.test(text);
}
