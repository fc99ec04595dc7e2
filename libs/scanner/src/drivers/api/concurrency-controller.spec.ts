import { ConcurrencyController } from './concurrency-controller';

/** `n` answers, each after `latencyMs` */
function answer(conversations: ConcurrencyController, n: number, latencyMs: number): void {
  for (let i = 0; i < n; i++) conversations.observe({ kind: 'answered', latencyMs });
}

describe('ConcurrencyController', () => {
  it("keeps rate × latency conversations in flight once the rate is known (Little's law)", () => {
    const conversations = new ConcurrencyController({ initialConcurrency: 2, maxConcurrency: 32 });
    answer(conversations, 20, 2000);
    // 10/s × 2 s = 20 in flight, with a margin
    expect(conversations.concurrency(10)).toBeGreaterThanOrEqual(20);
    expect(conversations.concurrency(10)).toBeLessThanOrEqual(27);
    // never past the most allowed
    expect(conversations.concurrency(100)).toBe(32);
  });

  it('without a rate, grows while answers stay fast and shrinks when they slow or time out', () => {
    const conversations = new ConcurrencyController({ initialConcurrency: 2, maxConcurrency: 6 });
    answer(conversations, 40, 100);
    expect(conversations.concurrency(null)).toBe(6);
    answer(conversations, 3, 900); // queueing at the target: slower than twice the fastest
    expect(conversations.concurrency(null)).toBe(3);
    conversations.observe({ kind: 'failed' });
    expect(conversations.concurrency(null)).toBe(2);
  });

  it('a refusal is the rate\'s business: the conversations stay, and growth counts afresh', () => {
    const conversations = new ConcurrencyController({ initialConcurrency: 4, maxConcurrency: 6 });
    conversations.observe({ kind: 'throttled' });
    expect(conversations.concurrency(null)).toBe(4);
    // three fast answers, a refusal, three more: four in a row are needed to grow to five
    answer(conversations, 3, 100);
    conversations.observe({ kind: 'throttled' });
    answer(conversations, 3, 100);
    expect(conversations.concurrency(null)).toBe(4);
    answer(conversations, 1, 100);
    expect(conversations.concurrency(null)).toBe(5);
  });

  it('starts at the profile\'s number, within the most allowed and at least one', () => {
    expect(new ConcurrencyController({ initialConcurrency: 8, maxConcurrency: 4 }).concurrency(null)).toBe(4);
    expect(new ConcurrencyController({ initialConcurrency: 0, maxConcurrency: 4 }).concurrency(null)).toBe(1);
  });
});
