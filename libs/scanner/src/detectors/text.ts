import { HOMOGLYPHS } from '../converters/encodings';

const ZERO_WIDTH = /[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]/g;
const LATIN_OF = new Map(Object.entries(HOMOGLYPHS).map(([latin, glyph]) => [glyph, latin]));

/** Case-, width-, homoglyph- and zero-width-insensitive form of a text, for matching. */
export function fold(text: string): string {
  return [...text.normalize('NFKC').replace(ZERO_WIDTH, '')].map((ch) => LATIN_OF.get(ch) ?? ch).join('').toLowerCase();
}

/** fold() without any whitespace, so "AB CD" and "ab\ncd" match "abcd". */
export function squash(text: string): string {
  return fold(text).replace(/\s+/g, '');
}

/** True when `fragment` was already in what we sent: an echo proves nothing. */
export function echoed(fragment: string, prompts: string): boolean {
  return squash(prompts).includes(squash(fragment));
}
