import { retryDelay } from './retry-backoff';

describe('retryDelay', () => {
  const backoff = { initialMs: 100, maxMs: 1000 };
  const middle = () => 0.5;

  it('doubles from the initial wait and stops growing at the cap', () => {
    expect([1, 2, 3, 4, 5, 50].map((n) => retryDelay(n, backoff, middle))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('jitters by at most 20% and never passes the cap', () => {
    expect(retryDelay(1, backoff, () => 0)).toBe(80);
    expect(retryDelay(1, backoff, () => 0.999999)).toBe(120);
    expect(retryDelay(10, backoff, () => 0.999999)).toBe(1000);
  });
});
