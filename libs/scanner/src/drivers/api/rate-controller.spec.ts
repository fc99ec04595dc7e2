import { RateController } from './rate-controller';

/** sends `n` requests `gapMs` apart from `from`, each answered after `latencyMs` */
function admit(rate: RateController, from: number, n: number, gapMs: number, latencyMs: number): number {
  let t = from;
  for (let i = 0; i < n; i++, t += gapMs) {
    const at = rate.reserve(t);
    rate.observe({ kind: 'answered', sentAt: at, latencyMs }, at + latencyMs);
  }
  return t;
}

describe('RateController', () => {
  it('sends unpaced until the target refuses; a refusal in the first second only pauses everyone', () => {
    const rate = new RateController(null);
    expect([rate.reserve(0), rate.reserve(0), rate.reserve(0)]).toEqual([0, 0, 0]);
    rate.observe({ kind: 'throttled', sentAt: 0, retryAfterMs: 100 }, 2);
    expect(rate.rate).toBeNull();
    expect(rate.reserve(3)).toBe(102);
  });

  it('after a first refusal, drops under the limit it reveals and climbs back to just under it within a second', () => {
    const rate = new RateController(null);
    // 10 per second admitted for three seconds, each answered in 200 ms; the next one, 95 ms on, is refused
    let now = admit(rate, 0, 30, 100, 200);
    const refused = rate.reserve(now - 5);
    rate.observe({ kind: 'throttled', sentAt: refused, retryAfterMs: 50 }, now);
    // nothing was refused before: the limit is under the spacing refused (1000/95 per second)
    // and under the pace of the last two seconds (20 sent), the lower of the two
    const limit = 10;
    expect(rate.rate).toBeCloseTo(limit * 0.95, 5);
    const first = rate.reserve(now);
    expect(first).toBe(now + 50);
    expect(rate.reserve(now) - first).toBeCloseTo(1000 / (limit * 0.95), 5);
    now = admit(rate, now + 100, 12, 100, 200);
    expect(rate.rate).toBeCloseTo(limit * 0.97, 5);
  });

  it('spaces requests by when they really left: a slot whose timer fired late does not bring the next closer', () => {
    const rate = new RateController(10);
    const interval = 1000 / (10 * 0.97);
    const [a, b, c] = [rate.reserve(0), rate.reserve(0), rate.reserve(0)];
    expect([a, b - a, c - b].map(Math.round)).toEqual([0, Math.round(interval), Math.round(interval)]);
    // the first leaves 60 ms late (a busy machine); the second's slot comes on time
    expect(rate.depart(a + 60)).toBe(a + 60);
    expect(rate.depart(b)).toBeCloseTo(a + 60 + interval, 5);
    expect(rate.depart(a + 60 + interval)).toBe(a + 60 + interval);
    // the third waits its spacing after the second, and a slot handed out now comes after it
    expect(rate.depart(c)).toBeCloseTo(a + 60 + 2 * interval, 5);
    expect(rate.depart(a + 60 + 2 * interval)).toBe(a + 60 + 2 * interval);
    expect(rate.reserve(c)).toBeGreaterThanOrEqual(a + 60 + 3 * interval - 1e-9);
  });

  it('leaves at once while unpaced', () => {
    const rate = new RateController(null);
    expect([rate.depart(5), rate.depart(5)]).toEqual([5, 5]);
  });

  it('measures what a target admits from when it began refusing, when requests leave together', () => {
    const rate = new RateController(null);
    // four at once, one admitted: nothing to measure yet, everyone waits
    const now = 1000;
    const [a, b] = [rate.reserve(now), rate.reserve(now)];
    rate.observe({ kind: 'throttled', sentAt: b, retryAfterMs: 100 }, now + 2);
    expect(rate.rate).toBeNull();
    rate.observe({ kind: 'answered', sentAt: a, latencyMs: 200 }, now + 200);
    // then, asking more than it takes, it admits one in 125 ms (8 per second) for 1.5 s
    const end = now + 1500;
    for (let t = now + 125; t < end; t += 125) {
      const x = rate.reserve(t);
      const y = rate.reserve(t);
      rate.observe({ kind: 'answered', sentAt: x, latencyMs: 200 }, x + 200);
      rate.observe({ kind: 'throttled', sentAt: y, retryAfterMs: 0 }, x + 2);
      if (rate.rate !== null) break;
    }
    expect(rate.rate).toBeGreaterThan(7);
    expect(rate.rate).toBeLessThan(8.5);
  });

  it('a refusal at about the pace already kept steps the rate down 1 %, not by half', () => {
    const rate = new RateController(10);
    const now = admit(rate, 0, 30, 100, 200);
    const before = rate.rate!;
    const refused = rate.reserve(now);
    rate.observe({ kind: 'throttled', sentAt: refused, retryAfterMs: 0 }, now + 1);
    expect(rate.rate).toBeCloseTo(before * 0.99, 5);
  });

  it('a refusal of a request sent before the rate last changed only pauses: that change already answered it', () => {
    const rate = new RateController(10);
    const now = admit(rate, 0, 30, 100, 200);
    const [early, late] = [rate.reserve(now), rate.reserve(now)];
    rate.observe({ kind: 'throttled', sentAt: late, retryAfterMs: 0 }, late + 1);
    const stepped = rate.rate!;
    rate.observe({ kind: 'throttled', sentAt: early, retryAfterMs: 300 }, late + 2);
    expect(rate.rate).toBe(stepped);
    expect(rate.pausedUntil).toBe(late + 302);
    // one sent after the step and refused too: the pace is still too fast
    const after = rate.reserve(late + 400);
    rate.observe({ kind: 'throttled', sentAt: after, retryAfterMs: 0 }, after + 1);
    expect(rate.rate).toBeLessThan(stepped);
  });

  it('refused often while paced, drops under what the target admitted', () => {
    const rate = new RateController(10);
    // it admits one request per 200 ms (5 per second) of the ~10 asked
    let now = 0;
    let admitted = -Infinity;
    const paces: number[] = [];
    for (let i = 0; i < 40; i++, now += 100) {
      const at = rate.reserve(now);
      if (at - admitted >= 200) {
        admitted = at;
        rate.observe({ kind: 'answered', sentAt: at, latencyMs: 200 }, at + 200);
      } else rate.observe({ kind: 'throttled', sentAt: at, retryAfterMs: 0 }, at + 1);
      paces.push(rate.rate!);
    }
    expect(Math.min(...paces)).toBeGreaterThan(3);
    expect(rate.rate).toBeLessThan(5);
  });

  it('a refusal after a probe goes back to the rate that last held; refusals in a row step twice as far each', () => {
    const rate = new RateController(null);
    let now = admit(rate, 0, 30, 100, 200);
    rate.observe({ kind: 'throttled', sentAt: rate.reserve(now - 5), retryAfterMs: 0 }, now);
    // quiet for long enough that it climbs back and probes beyond: the rate each answer leaves
    const paces = [rate.rate!];
    for (let i = 0; i < 60; i++) {
      now = admit(rate, now, 1, 100, 200);
      if (rate.rate !== paces[paces.length - 1]) paces.push(rate.rate!);
    }
    const [held, probed] = paces.slice(-2);
    expect(probed / held).toBeGreaterThan(1.019);
    rate.observe({ kind: 'throttled', sentAt: rate.reserve(now), retryAfterMs: 0 }, now + 1);
    expect(rate.rate).toBeCloseTo(held, 5);
    // refused again before a quiet period passes: 2 %, then 4 % (a third in a row is "often": a drop)
    const steps: number[] = [];
    for (let i = 0; i < 2; i++) {
      now += 150;
      const before = rate.rate!;
      rate.observe({ kind: 'throttled', sentAt: rate.reserve(now), retryAfterMs: 0 }, now + 1);
      steps.push(Math.round((1 - rate.rate! / before) * 100));
    }
    expect(steps).toEqual([2, 4]);
  });

  it('creeps back up while nothing is refused, never past the ceiling', () => {
    const rate = new RateController(null);
    let now = admit(rate, 0, 30, 100, 200);
    rate.observe({ kind: 'throttled', sentAt: rate.reserve(now - 5), retryAfterMs: 0 }, now);
    const after = rate.rate!;
    now = admit(rate, now, 50, 100, 200);
    expect(rate.rate!).toBeGreaterThan(after * 1.02);

    const capped = new RateController(12);
    admit(capped, 0, 2000, 50, 200);
    expect(capped.rate).toBe(12);
  });
});
