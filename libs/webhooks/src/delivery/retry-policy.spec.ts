import { DEFAULT_RETRY_DELAYS_MS, nextAttempt, parseRetryAfter } from './retry-policy';

describe('retry policy', () => {
  const now = 1_000_000;

  it('retries after 1, 5 and 30 minutes, then drops (first attempt + 3 retries)', () => {
    expect(DEFAULT_RETRY_DELAYS_MS).toEqual([60_000, 300_000, 1_800_000]);
    expect(nextAttempt(1, undefined, now)).toEqual({ retryAt: now + 60_000, delayMs: 60_000 });
    expect(nextAttempt(2, undefined, now)).toEqual({ retryAt: now + 300_000, delayMs: 300_000 });
    expect(nextAttempt(3, undefined, now)).toEqual({ retryAt: now + 1_800_000, delayMs: 1_800_000 });
    expect(nextAttempt(4, undefined, now)).toEqual({ drop: true });
  });

  it('takes configured delays', () => {
    expect(nextAttempt(2, [50, 100, 150], now)).toEqual({ retryAt: now + 100, delayMs: 100 });
    expect(nextAttempt(2, [50], now)).toEqual({ drop: true });
  });

  it('honours Retry-After only when it is later than the schedule', () => {
    expect(nextAttempt(1, undefined, now, 120_000)).toEqual({ retryAt: now + 120_000, delayMs: 120_000 });
    expect(nextAttempt(1, undefined, now, 5_000)).toEqual({ retryAt: now + 60_000, delayMs: 60_000 });
    expect(nextAttempt(4, undefined, now, 5_000)).toEqual({ drop: true });
  });

  it('refuses nonsense attempt numbers', () => {
    expect(() => nextAttempt(0)).toThrow(RangeError);
    expect(() => nextAttempt(1.5)).toThrow(RangeError);
  });

  it('reads Retry-After as seconds or an HTTP-date', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT'))).toBe(60_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 08:00:00 GMT'))).toBe(0);
    expect(parseRetryAfter(undefined)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(['7', '9'])).toBe(7_000);
  });
});
