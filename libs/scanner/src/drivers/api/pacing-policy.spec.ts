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
  it('with only a ceiling, spaces requests evenly just under it', () => {
    const policy = new PacingPolicy({ ceilingRate: 4, initialConcurrency: 2, maxConcurrency: 8 });
    const [a, b, c] = [policy.reserve(1000), policy.reserve(1000), policy.reserve(1000)];
    expect(a).toBe(1000);
    expect(b - a).toBeCloseTo(1000 / (4 * 0.97), 5);
    expect(c - b).toBeCloseTo(1000 / (4 * 0.97), 5);
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
    // nothing was refused before: the limit is under the spacing refused (1000/95 per second)
    // and under the pace of the last two seconds (20 sent), the lower of the two
    const limit = 10;
    expect(policy.state.rate).toBeCloseTo(limit * 0.95, 5);
    const first = policy.reserve(now);
    expect(first).toBe(now + 50);
    expect(policy.reserve(now) - first).toBeCloseTo(1000 / (limit * 0.95), 5);
    now = admit(policy, now + 100, 12, 100, 200);
    expect(policy.state.rate).toBeCloseTo(limit * 0.97, 5);
  });

  it('measures what a target admits from when it began refusing, when requests leave together', () => {
    const policy = new PacingPolicy({ ceilingRate: null, initialConcurrency: 4, maxConcurrency: 16 });
    // four at once, one admitted: nothing to measure yet, everyone waits
    const now = 1000;
    const [a, b] = [policy.reserve(now), policy.reserve(now)];
    policy.record({ kind: 'throttled', sentAt: b, retryAfterMs: 100 }, now + 2);
    expect(policy.state.rate).toBeNull();
    policy.record({ kind: 'answered', sentAt: a, latencyMs: 200 }, now + 200);
    // then, asking more than it takes, it admits one in 125 ms (8 per second) for 1.5 s
    const end = now + 1500;
    for (let t = now + 125; t < end; t += 125) {
      const x = policy.reserve(t);
      const y = policy.reserve(t);
      policy.record({ kind: 'answered', sentAt: x, latencyMs: 200 }, x + 200);
      policy.record({ kind: 'throttled', sentAt: y, retryAfterMs: 0 }, x + 2);
      if (policy.state.rate !== null) break;
    }
    expect(policy.state.rate).toBeGreaterThan(7);
    expect(policy.state.rate).toBeLessThan(8.5);
  });

  it('a refusal at about the pace already kept steps the rate down 1 %, not by half', () => {
    const policy = new PacingPolicy({ ceilingRate: 10, initialConcurrency: 4, maxConcurrency: 16 });
    const now = admit(policy, 0, 30, 100, 200);
    const before = policy.state.rate!;
    const refused = policy.reserve(now);
    policy.record({ kind: 'throttled', sentAt: refused, retryAfterMs: 0 }, now + 1);
    expect(policy.state.rate).toBeCloseTo(before * 0.99, 5);
  });

  it('a refusal of a request sent before the rate last changed only pauses: that change already answered it', () => {
    const policy = new PacingPolicy({ ceilingRate: 10, initialConcurrency: 4, maxConcurrency: 16 });
    const now = admit(policy, 0, 30, 100, 200);
    const [early, late] = [policy.reserve(now), policy.reserve(now)];
    policy.record({ kind: 'throttled', sentAt: late, retryAfterMs: 0 }, late + 1);
    const stepped = policy.state.rate!;
    policy.record({ kind: 'throttled', sentAt: early, retryAfterMs: 300 }, late + 2);
    expect(policy.state.rate).toBe(stepped);
    expect(policy.state.pausedUntil).toBe(late + 302);
    // one sent after the step and refused too: the pace is still too fast
    const after = policy.reserve(late + 400);
    policy.record({ kind: 'throttled', sentAt: after, retryAfterMs: 0 }, after + 1);
    expect(policy.state.rate).toBeLessThan(stepped);
  });

  it('refused often while paced, drops under what the target admitted', () => {
    const policy = new PacingPolicy({ ceilingRate: 10, initialConcurrency: 4, maxConcurrency: 16 });
    // it admits 5 per second of the ~10 asked: every other request refused
    let now = 0;
    for (let i = 0; i < 30; i++, now += 100) {
      const at = policy.reserve(now);
      if (i % 2 === 0) policy.record({ kind: 'answered', sentAt: at, latencyMs: 200 }, at + 200);
      else policy.record({ kind: 'throttled', sentAt: at, retryAfterMs: 0 }, at + 1);
    }
    expect(policy.state.rate).toBeLessThan(5);
    expect(policy.state.rate).toBeGreaterThan(3);
  });

  it('creeps back up while nothing is refused, never past the ceiling', () => {
    const policy = new PacingPolicy({ ceilingRate: null, initialConcurrency: 4, maxConcurrency: 16 });
    let now = admit(policy, 0, 30, 100, 200);
    policy.record({ kind: 'throttled', sentAt: policy.reserve(now - 5), retryAfterMs: 0 }, now);
    const after = policy.state.rate!;
    now = admit(policy, now, 50, 100, 200);
    expect(policy.state.rate!).toBeGreaterThan(after * 1.02);

    const capped = new PacingPolicy({ ceilingRate: 12, initialConcurrency: 4, maxConcurrency: 16 });
    admit(capped, 0, 2000, 50, 200);
    expect(capped.state.rate).toBe(12);
  });

  it('keeps rate × latency conversations in flight once the rate is known (Little\'s law)', () => {
    const policy = new PacingPolicy({ ceilingRate: 10, initialConcurrency: 2, maxConcurrency: 32 });
    admit(policy, 0, 20, 100, 2000);
    // 10/s × 2 s = 20 in flight, with a margin
    expect(policy.concurrency()).toBeGreaterThanOrEqual(20);
    expect(policy.concurrency()).toBeLessThanOrEqual(27);
  });

  it('without a rate, grows concurrency while answers stay fast and shrinks when they slow or time out', () => {
    const policy = new PacingPolicy({ ceilingRate: null, initialConcurrency: 2, maxConcurrency: 6 });
    admit(policy, 0, 40, 10, 100);
    expect(policy.concurrency()).toBe(6);
    admit(policy, 1000, 3, 10, 900); // queueing at the target: slower than twice the fastest
    expect(policy.concurrency()).toBe(3);
    policy.record({ kind: 'failed' }, 2000);
    expect(policy.concurrency()).toBe(2);

    // a refusal is the rate's business: the conversations stay
    const refused = new PacingPolicy({ ceilingRate: null, initialConcurrency: 4, maxConcurrency: 6 });
    refused.reserve(0);
    refused.record({ kind: 'throttled', sentAt: 0, retryAfterMs: null }, 10);
    expect(refused.concurrency()).toBe(4);
  });
});
