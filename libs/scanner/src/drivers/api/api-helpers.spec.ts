import { RequestPacer } from './request-pacer';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from './retry-policy';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(['3'], now)).toBe(3_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});

describe('retryDelay', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
  it('doubles with each retry, jittered between half and all of the step, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, policy, null, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, policy, null, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });
  it('uses the target Retry-After, capped', () => {
    expect(retryDelay(1, policy, 2_000, () => 0.5)).toBe(2_000);
    expect(retryDelay(1, policy, 3_600_000)).toBe(5_000);
    expect(retryDelay(1, policy, 0)).toBe(0);
  });
});

describe('RequestPacer', () => {
  it('spaces requests on a shared schedule, just under the rate given (4/s: 258 ms apart)', async () => {
    jest.useFakeTimers({ now: 1_000 });
    try {
      const pacer = new RequestPacer(4);
      await pacer.take(); // first slot is free
      const started: number[] = [];
      const waits = [pacer.take(), pacer.take()].map((p, i) => p.then(() => started.push(i)));
      await jest.advanceTimersByTimeAsync(255);
      expect(started).toEqual([]);
      await jest.advanceTimersByTimeAsync(5);
      expect(started).toEqual([0]);
      await jest.advanceTimersByTimeAsync(260);
      await Promise.all(waits);
      expect(started).toEqual([0, 1]);
    } finally {
      jest.useRealTimers();
    }
  });
  it('lets everything through when no rate is set', async () => {
    const pacer = new RequestPacer(null);
    await Promise.all([pacer.take(), pacer.take(), pacer.take()]);
  });
});
