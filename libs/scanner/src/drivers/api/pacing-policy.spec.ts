import { PacingPolicy } from './pacing-policy';

/** sends `n` requests `gapMs` apart from `from`, each answered after `latencyMs` */
function admit(policy: PacingPolicy, from: number, n: number, gapMs: number, latencyMs: number): number {
  let t = from;
  for (let i = 0; i < n; i++, t += gapMs) {
    const at = policy.reserve(t);
    policy.record({ kind: 'answered', sentAt: at, latencyMs }, at + latencyMs);
  }
  return t;
}

describe('PacingPolicy', () => {
  it('with only a ceiling, spaces requests evenly at it', () => {
    const policy = new PacingPolicy({ ceilingRate: 4, initialConcurrency: 2, maxConcurrency: 8 });
    expect([policy.reserve(1000), policy.reserve(1000), policy.reserve(1000)]).toEqual([1000, 1250, 1500]);
  });

  it('sends unpaced until the target refuses; a refusal in the first second only pauses everyone', () => {
    const policy = new PacingPolicy({ ceilingRate: null, initialConcurrency: 4, maxConcurrency: 16 });
    expect([policy.reserve(0), policy.reserve(0), policy.reserve(0)]).toEqual([0, 0, 0]);
    policy.record({ kind: 'throttled', sentAt: 0, retryAfterMs: 100 }, 2);
    expect(policy.state.rate).toBeNull();
    expect(policy.reserve(3)).toBe(102);
  });

  it('after a first refusal, drops under the limit it reveals and climbs back to just under it within a second', () => {
    const policy = new PacingPolicy({ ceilingRate: null, initialConcurrency: 4, maxConcurrency: 16 });
    // 10 per second admitted for three seconds, each answered in 200 ms; the next one, 95 ms on, is refused
    let now = admit(policy, 0, 30, 100, 200);
    const refused = policy.reserve(now - 5);
    policy.record({ kind: 'throttled', sentAt: refused, retryAfterMs: 50 }, now);
    // the lower of the two readings: 10 admitted per second (the spacing said 10.5)
    expect(policy.state.rate).toBeCloseTo(9.5, 5);
    const first = policy.reserve(now);
    expect(first).toBe(now + 50);
    expect(policy.reserve(now) - first).toBeCloseTo(1000 / 9.5, 5);
    now = admit(policy, now + 100, 12, 100, 200);
    expect(policy.state.rate).toBeCloseTo(9.7, 5);
  });

  it('a refusal at about the pace already kept steps the rate down 1 %, not by half', () => {
    const policy = new PacingPolicy({ ceilingRate: 10, initialConcurrency: 4, maxConcurrency: 16 });
    const now = admit(policy, 0, 30, 100, 200);
    expect(policy.state.rate).toBe(10);
    const refused = policy.reserve(now);
    policy.record({ kind: 'throttled', sentAt: refused, retryAfterMs: 0 }, now + 1);
    expect(policy.state.rate).toBeCloseTo(9.9, 5);
  });

  it('creeps back up while nothing is refused, never past the ceiling', () => {
    const policy = new PacingPolicy({ ceilingRate: 12, initialConcurrency: 4, maxConcurrency: 16 });
    let now = admit(policy, 0, 30, 100, 200);
    policy.record({ kind: 'throttled', sentAt: 0, retryAfterMs: 0 }, now);
    const after = policy.state.rate!;
    now = admit(policy, now, 50, 100, 200);
    expect(policy.state.rate!).toBeGreaterThan(after * 1.02);
    admit(policy, now, 2000, 100, 200);
    expect(policy.state.rate).toBe(12);
  });

  it('keeps rate × latency conversations in flight once the rate is known (Little\'s law)', () => {
    const policy = new PacingPolicy({ ceilingRate: 10, initialConcurrency: 2, maxConcurrency: 32 });
    admit(policy, 0, 20, 100, 2000);
    // 10/s × 2 s = 20 in flight, with a margin
    expect(policy.concurrency()).toBeGreaterThanOrEqual(20);
    expect(policy.concurrency()).toBeLessThanOrEqual(27);
  });

  it('without a rate, grows concurrency while answers stay fast and shrinks when they slow or are refused', () => {
    const policy = new PacingPolicy({ ceilingRate: null, initialConcurrency: 2, maxConcurrency: 6 });
    admit(policy, 0, 40, 10, 100);
    expect(policy.concurrency()).toBe(6);
    admit(policy, 1000, 3, 10, 900); // queueing at the target: slower than twice the fastest
    expect(policy.concurrency()).toBe(3);
    policy.record({ kind: 'failed' }, 2000);
    expect(policy.concurrency()).toBe(2);

    const refused = new PacingPolicy({ ceilingRate: null, initialConcurrency: 4, maxConcurrency: 6 });
    refused.reserve(0);
    refused.record({ kind: 'throttled', sentAt: 0, retryAfterMs: null }, 10);
    expect(refused.concurrency()).toBe(2);
  });
});
