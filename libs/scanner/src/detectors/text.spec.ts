import { fold, squash } from './text';

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
