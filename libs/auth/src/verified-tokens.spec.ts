import { VerifiedTokens } from './verified-tokens';

describe('VerifiedTokens', () => {
  let now = 1_800_000_000_000;
  const clock = () => now;

  it('given a verified token, answers its subject until the token expires', () => {
    const tokens = new VerifiedTokens({ now: clock });
    tokens.remember('tok-a', 'account-1', now / 1000 + 60);
    expect(tokens.subjectOf('tok-a')).toBe('account-1');
    now += 59_999;
    expect(tokens.subjectOf('tok-a')).toBe('account-1');
    now += 1;
    expect(tokens.subjectOf('tok-a')).toBeUndefined();
    expect(tokens.size).toBe(0);
  });

  it('knows only the exact token: another signature on the same claims is verified again', () => {
    const tokens = new VerifiedTokens({ now: clock });
    tokens.remember('header.payload.signature', 'account-1', now / 1000 + 60);
    expect(tokens.subjectOf('header.payload.forged')).toBeUndefined();
  });

  it('keeps a token for five minutes at most, even when it lives longer or has no exp', () => {
    const tokens = new VerifiedTokens({ now: clock });
    tokens.remember('long', 'account-1', now / 1000 + 24 * 3600);
    tokens.remember('no-exp', 'account-2');
    now += 5 * 60_000;
    expect(tokens.subjectOf('long')).toBeUndefined();
    expect(tokens.subjectOf('no-exp')).toBeUndefined();
  });

  it('does not keep a token that has already expired', () => {
    const tokens = new VerifiedTokens({ now: clock });
    tokens.remember('old', 'account-1', now / 1000 - 1);
    expect(tokens.size).toBe(0);
  });

  it('is bounded: when full, the oldest token goes first', () => {
    const tokens = new VerifiedTokens({ now: clock, maxEntries: 2 });
    tokens.remember('a', 'account-a', now / 1000 + 60);
    tokens.remember('b', 'account-b', now / 1000 + 60);
    tokens.remember('c', 'account-c', now / 1000 + 60);
    expect([tokens.subjectOf('a'), tokens.subjectOf('b'), tokens.subjectOf('c')]).toEqual([undefined, 'account-b', 'account-c']);
  });
});
