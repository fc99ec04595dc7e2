import { HOMOGLYPHS } from '../converters/encodings';
import { Rng, seededRng } from '../converters/random';
import { randomTexts } from '../../testing/random-texts';
import { containsTolerant, findTolerant, fold, spanTolerant, squash } from './text';

/** random texts from the characters that fold and squash treat apart: spaces of every kind, look-alikes, expansions, lone surrogates */
function* texts(count: number): Generator<string> {
  const alphabet = ['a', 'A', 'Σ', 'σ', ' ', '\n', '\t', '\u00a0', '\u2000', '\u2028', '\u3000', '\ufeff', '\u200b', '\u00ad', 'é', 'e\u0301', 'ﬁ', '\ud800', '\udc00', '😀', 'а', 'ｱ', 'Ω', '1', '.'];
  let seed = 37;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  for (let k = 0; k < count; k++) {
    let s = '';
    // short texts and long ones: long and short ones are cached apart
    const length = next(k % 2 ? 24 : 700);
    for (let i = 0; i < length; i++) s += alphabet[next(alphabet.length)];
    yield s;
  }
}

describe('squash', () => {
  it('is fold() without whitespace, as `\\s` reads it', () => {
    const differing = [...texts(2000)].filter((text) => squash(text) !== fold(text).replace(/\s+/g, ''));
    expect(differing).toEqual([]);
  });

  it('gives a long text the same squash after short ones were squashed between', () => {
    const answer = `${'Die Straße ist lang. '.repeat(40)}ﬁnal Σ`;
    const first = squash(answer);
    expect(squash('a b')).toBe('ab');
    expect(fold('ΑΣ Β')).toBe('ας β');
    expect(squash(answer)).toBe(first);
    expect(first).toBe(fold(answer).replace(/\s+/g, ''));
  });
});

/**
 * fold, squash and the tolerant find as they were before they read a long answer's units through a
 * Buffer, lowercased only a text with cased letters and searched a fold for the needles instead of
 * copying it once more without its spaces: what the rewrite is held to.
 */
const before = (() => {
  const isAscii = (text: string) => Buffer.byteLength(text, 'utf8') === text.length;
  const FOLDED_UNIT = Uint16Array.from({ length: 65536 }, (_, c) => c);
  for (const c of [0xad, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff]) FOLDED_UNIT[c] = 0;
  for (const [latin, glyph] of Object.entries(HOMOGLYPHS)) FOLDED_UNIT[glyph.charCodeAt(0)] = latin.charCodeAt(0);
  const UTF16 = new TextDecoder('utf-16le');
  const SPACE = new Uint8Array(65536);
  for (let c = 0; c < 65536; c++) if (/\s/.test(String.fromCharCode(c))) SPACE[c] = 1;
  function fold(text: string): string {
    if (isAscii(text)) return text.toLowerCase();
    const normal = text.normalize('NFKC');
    const units = new Uint16Array(normal.length);
    let n = 0;
    for (let i = 0; i < normal.length; i++) {
      const unit = FOLDED_UNIT[normal.charCodeAt(i)];
      if (unit !== 0) units[n++] = unit;
    }
    return UTF16.decode(units.subarray(0, n)).toLowerCase();
  }
  function squash(text: string): string {
    if (text.length < 256) return fold(text).replace(/\s+/g, '');
    const folded = fold(text);
    const units = new Uint16Array(folded.length);
    let n = 0;
    for (let i = 0; i < folded.length; i++) {
      const unit = folded.charCodeAt(i);
      if (SPACE[unit] === 0) units[n++] = unit;
    }
    return n === folded.length ? folded : UTF16.decode(units.subarray(0, n));
  }
  const INVISIBLE = '[\\s\\u00ad\\u180e\\u200b-\\u200f\\u2060-\\u2064\\ufeff]*';
  const tolerantPattern = (needle: string) => [...squash(needle)].map((c) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join(INVISIBLE);
  function findTolerant(text: string, needles: readonly string[]): string | null {
    if (needles.length === 0) return null;
    if (!isAscii(text)) {
      const folded = squash(text);
      return needles.find((n) => folded.includes(squash(n))) ?? null;
    }
    const m = new RegExp(needles.map((n) => `(${tolerantPattern(n)})`).join('|'), 'i').exec(text);
    return m ? needles[m.slice(1).findIndex((g) => g !== undefined)] : null;
  }
  function spanTolerant(text: string, needle: string): [number, number] | null {
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
  return { fold, squash, findTolerant, spanTolerant };
})();

/** what an answer spells a canary with: its parts in both cases, look-alikes, full-width and circled forms, separators and invisibles */
const PIECES = [
  'PENNY', 'penny', 'SYS', 'sys', '7F3Q', '7f3q', 'CANARY', '-', 'P', 'E', 'N', 'Y', 'S', 'Q', '7', 'F', '3', 'a', 'A', 'k', 'i', 'o', 'x',
  // look-alikes the fold maps (Cyrillic), and letters it does not (Greek)
  ...Object.values(HOMOGLYPHS), 'Ν', 'Υ', 'Σ', 'σ', 'ς', 'Ω',
  // compatibility forms NFKC turns into ASCII, and what lowercases oddly
  'Ｐ', 'ｅ', 'Ｎ', 'ⓨ', 'Ⓢ', '…', 'ﬁ', '㍱', '\u212a', 'İ', 'ß', '\u1e9e', 'ǅ', 'é', 'e\u0301', 'ｱ', '中',
  // separators and invisibles of every kind
  ' ', '\n', '\t', '\u00a0', '\u2000', '\u2028', '\u3000', '\u200b', '\u00ad', '\ufeff', '\u2060', '\u180e', '\u200e', '\0',
  // astral letters that lowercase (Deseret), an emoji, and surrogates without their pair
  '\u{10400}', '\u{1e900}', '😀', '\ud801', '\ud83d', '\udc00', '\ude00',
];
const NEEDLES = ['PENNY-SYS-7F3Q-CANARY', 'pennysys7f3q', 'PENNY-SYS', 'SYS-7F3Q', 'Ｐenny sys', 'ﬁ', 'ἀ', '\u{10428}', ' '];

/** `needle` as an answer may spell it: each character in another case or form, separators and invisibles between, now and then one character wrong */
function spelled(needle: string, rng: Rng): string {
  const forms = (c: string) => [c, c.toLowerCase(), c.toUpperCase(), HOMOGLYPHS[c] ?? c, c > ' ' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c];
  const between = ['', '', '', ' ', '\n', '\u200b', '\u00ad', '\u00a0', '\ufeff', '\u3000', '\0', '-'];
  return [...needle].map((c) => (rng.int(30) === 0 ? rng.pick(PIECES) : rng.pick(forms(c))) + rng.pick(between)).join('');
}

/** `count` texts of random pieces with a needle spelled in them, short and long (the two are cached and squashed apart), some past the judged 64 KiB */
function spellings(count: number): string[] {
  const rng = seededRng('fold-spellings');
  const around = (n: number, pieces: number) => randomTexts(PIECES, n, pieces, `fold-${pieces}`);
  const short = around(count, 12).map((text, i) => text.slice(0, i % text.length) + spelled(rng.pick(NEEDLES), rng) + text.slice(i % text.length));
  const long = around(count / 4, 400).map((text, i) => text + spelled(rng.pick(NEEDLES), rng) + text.slice(0, i));
  // a needle spelled across the 64 KiB edge of a long answer
  const edge = Array.from({ length: 24 }, (_, i) => `${(i % 2 ? 'ab ' : 'аb ').repeat(21_840)}${spelled(NEEDLES[i % 4], rng)}${'x'.repeat(i * 7)}`);
  return [...short, ...long, ...edge];
}

describe('fold, squash and the tolerant find against what they were', () => {
  const inputs = spellings(4000);

  it('fold and squash make what they made, of every text', () => {
    const differing = inputs.filter((text) => fold(text) !== before.fold(text) || squash(text) !== before.squash(text));
    expect(differing.map((t) => JSON.stringify(t.slice(0, 80)))).toEqual([]);
  });

  it('find the same needle, and the same span, in every text', () => {
    const differing = inputs.filter((text) => {
      const needles = [NEEDLES, NEEDLES.slice(1, 4), [NEEDLES[0]], [NEEDLES[4]], NEEDLES.slice(5)];
      return needles.some((n) => findTolerant(text, n) !== before.findTolerant(text, n)) || NEEDLES.some((n) => String(spanTolerant(text, n)) !== String(before.spanTolerant(text, n)));
    });
    expect(differing.map((t) => JSON.stringify(t.slice(0, 80)))).toEqual([]);
  });

  it('finds as often as it misses, so the comparison tells them apart', () => {
    const found = inputs.filter((text) => containsTolerant(text, 'PENNY-SYS') || containsTolerant(text, 'sys7f3q')).length;
    expect(found).toBeGreaterThan(inputs.length / 20);
    expect(found).toBeLessThan(inputs.length - inputs.length / 20);
  });
});
