import { randomTexts } from '../../../testing/random-texts';
import { connectionStrings, findSecrets } from './secrets';

const matches = (found: Iterable<{ 0: string; index?: number }>) => [...found].map((m) => [m.index, m[0]]);

describe('finding credentials in linear time', () => {
  it('finds the connection strings the backtracking pattern found, the same ones in the same order', () => {
    const pattern = /\b[a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:[^\s@/]{3,}@[^\s'"]+/gi;
    for (const text of randomTexts(['a', 'B', '1', '.', '+', '-', '_', ':', '/', '://', '@', ' ', '"', 'pg://u:pw1@h', 'x:yz'])) {
      expect(matches(connectionStrings(text))).toEqual(matches(text.matchAll(pattern)));
    }
  });

  it('finds the tokens the backtracking JWT pattern found', () => {
    const pattern = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
    const jwts = (text: string) => findSecrets(text).filter((h) => h.kind === 'jwt').map((h) => h.value);
    for (const text of randomTexts(['eyJ', 'abcd', 'abcdefgh', '-', '_', '.', ' ', 'x', 'eyJabcdefgh.'], 3000, 16)) {
      const expected = [...text.matchAll(pattern)].map((m) => m[0]);
      // findSecrets keeps one of two overlapping secrets: compare where no other pattern matched
      if (findSecrets(text).every((h) => h.kind === 'jwt')) expect(jwts(text)).toEqual(expected.slice(0, 50));
    }
  });

  it('reads runs of scheme characters and of eyJ once', () => {
    expect(findSecrets('a.'.repeat(200_000))).toEqual([]);
    expect(findSecrets('eyJ-'.repeat(100_000))).toEqual([]);
    expect(findSecrets(`${'a.'.repeat(100_000)}pg://admin:hunter22@db.internal`)).toEqual([{ kind: 'connection-string-password', value: `${'a.'.repeat(100_000)}pg://admin:hunter22@db.internal` }]);
  });
});
