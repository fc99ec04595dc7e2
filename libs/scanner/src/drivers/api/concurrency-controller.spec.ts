import { ConcurrencyController } from './concurrency-controller';
import { RequestPacer } from './request-pacer';

/** a small seeded generator: the same answers every run */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * A model served with `slots` generation slots: each answer has its own length (a one-line
 * refusal to a long recital) and takes a fixed part plus a time per token; with more requests in
 * flight than slots, each waits its turn, so its time grows with the share of slots it gets.
 * `answers` come back at the controller's concurrency, each sent with that many in flight.
 */
function serve(conversations: ConcurrencyController, { slots, answers, seed = 7 }: { slots: number; answers: number; seed?: number }): number[] {
  const next = random(seed);
  const seen: number[] = [];
  for (let n = 0; n < answers; ) {
    const c = conversations.concurrency(null);
    seen.push(c);
    for (let i = 0; i < c; i++, n++) {
      const units = Math.round(2 + next() * 160);
      const service = (40 + 25 * units) * (0.85 + next() * 0.3);
      conversations.observe({ kind: 'answered', latencyMs: service * Math.max(1, c / slots), units, inFlight: c });
    }
  }
  return seen;
}

describe('ConcurrencyController', () => {
  it("keeps rate × latency conversations in flight once the rate is known (Little's law)", () => {
    const conversations = new ConcurrencyController({ initialConcurrency: 2, maxConcurrency: 32 });
    for (let i = 0; i < 20; i++) conversations.observe({ kind: 'answered', latencyMs: 2000 });
    // 10/s × 2 s = 20 in flight, with a margin
    expect(conversations.concurrency(10)).toBeGreaterThanOrEqual(20);
    expect(conversations.concurrency(10)).toBeLessThanOrEqual(27);
    // never past the most allowed
    expect(conversations.concurrency(100)).toBe(32);
  });

  it.each([1, 2, 4])('given a model with %i generation slots whose answers vary in length, when scanned, it settles at the slots (or one over), not at one', (slots) => {
    for (const initialConcurrency of [1, 4]) {
      const conversations = new ConcurrencyController({ initialConcurrency, maxConcurrency: 16 });
      const seen = serve(conversations, { slots, answers: 700 });
      const settled = seen.slice(-20);
      expect(Math.min(...settled)).toBeGreaterThanOrEqual(slots);
      expect(Math.max(...settled)).toBeLessThanOrEqual(slots + 1);
    }
  });

  it('given a target with room for everyone (a hosted API), when answers vary in length, it grows to the most allowed (give or take one)', () => {
    const conversations = new ConcurrencyController({ initialConcurrency: 2, maxConcurrency: 8 });
    const seen = serve(conversations, { slots: 1000, answers: 600 });
    expect(Math.min(...seen.slice(-10))).toBeGreaterThanOrEqual(7);
  });

  it('measures the time per output unit at each number in flight, leaving out the slowest and fastest', () => {
    const conversations = new ConcurrencyController({ initialConcurrency: 3, maxConcurrency: 3 });
    for (let i = 0; i < 8; i++) conversations.observe({ kind: 'answered', latencyMs: 100 * (i + 1), units: 10 * (i + 1), inFlight: 3 });
    expect(conversations.unitTime(3)).toBeCloseTo(10);
    expect(conversations.throughput(3)).toBeCloseTo(300);
    // fewer than eight answers at a level: not measured
    expect(conversations.unitTime(2)).toBeNull();
  });

  it('eases off when answers time out or connections drop', () => {
    const conversations = new ConcurrencyController({ initialConcurrency: 8, maxConcurrency: 8 });
    conversations.observe({ kind: 'answered', latencyMs: 100, inFlight: 1 });
    conversations.observe({ kind: 'failed' });
    expect(conversations.concurrency(null)).toBe(6);
    conversations.observe({ kind: 'failed' });
    expect(conversations.concurrency(null)).toBe(4);
  });

  it("a refusal is the rate's business: the conversations stay", () => {
    const conversations = new ConcurrencyController({ initialConcurrency: 4, maxConcurrency: 6 });
    conversations.observe({ kind: 'answered', latencyMs: 100, inFlight: 1 });
    conversations.observe({ kind: 'throttled' });
    expect(conversations.concurrency(null)).toBe(4);
  });

  it("keeps one conversation until the first answer, then the profile's number, within the most allowed and at least one", () => {
    const answered = (c: ConcurrencyController) => (c.observe({ kind: 'answered', latencyMs: 100, inFlight: 1 }), c);
    const cautious = new ConcurrencyController({ initialConcurrency: 4, maxConcurrency: 8 });
    expect([cautious.concurrency(null), cautious.concurrency(10)]).toEqual([1, 1]);
    cautious.observe({ kind: 'failed' });
    expect(cautious.concurrency(null)).toBe(1);
    expect(answered(cautious).concurrency(null)).toBe(3);
    expect(answered(new ConcurrencyController({ initialConcurrency: 8, maxConcurrency: 4 })).concurrency(null)).toBe(4);
    expect(answered(new ConcurrencyController({ initialConcurrency: 0, maxConcurrency: 4 })).concurrency(null)).toBe(1);
  });
});

describe('the throughput the pacer reports', () => {
  it("is the conversations in flight over the time an answer takes, within the rate (Little's law)", () => {
    const pacer = new RequestPacer({ ceilingRate: null, initialConcurrency: 4, maxConcurrency: 4 }, () => 0);
    expect(pacer.throughput()).toBeNull();
    for (let i = 0; i < 5; i++) pacer.record({ kind: 'answered', sentAt: 0, latencyMs: 2000, units: 50, inFlight: 4 });
    expect(pacer.throughput()).toBeCloseTo(2);
    const paced = new RequestPacer({ ceilingRate: 1, initialConcurrency: 4, maxConcurrency: 16 }, () => 0);
    for (let i = 0; i < 5; i++) paced.record({ kind: 'answered', sentAt: 0, latencyMs: 200 });
    expect(paced.throughput()).toBeLessThanOrEqual(1);
  });
});
