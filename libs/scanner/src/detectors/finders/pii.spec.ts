import { randomTexts } from '../../../testing/random-texts';
import { emailAddresses, findPii } from './pii';

describe('finding personal data in linear time', () => {
  it('finds the e-mail addresses the backtracking pattern found, the same ones in the same order', () => {
    const pattern = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
    for (const text of randomTexts(['a', 'B', '7', '.', '-', '_', '%', '@', ' ', 'x.io', '@ab.cd', 'é', '\n'])) {
      expect([...emailAddresses(text)]).toEqual([...text.matchAll(pattern)].map((m) => m[0]));
    }
  });

  it('reads a run without an @ once, however long', () => {
    expect([...emailAddresses(`${'a'.repeat(200_000)}@x.io`)]).toEqual([`${'a'.repeat(200_000)}@x.io`]);
    expect([...emailAddresses('a@'.repeat(100_000))]).toEqual([]);
  });

  it('an IBAN and a card number are told apart whatever their number', () => {
    const ibans = 'GB82 WEST 1234 5698 7654 32, '.repeat(2_000);
    expect(findPii(`${ibans} card 4111 1111 1111 1111`).map((h) => h.kind)).toEqual(Array(50).fill('iban'));
    expect(findPii('GB82 WEST 1234 5698 7654 32 and 4111 1111 1111 1111').map((h) => h.kind)).toEqual(['iban', 'card']);
  });
});
