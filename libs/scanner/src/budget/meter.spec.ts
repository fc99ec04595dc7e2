import { BudgetReached, SpendMeter } from './meter';

describe('the spend meter', () => {
  it('counts a request before it goes out, and refuses the one that would cross max_requests, however many are in flight', () => {
    const meter = new SpendMeter({ max_requests: 3 });
    // three in flight at once, none answered yet: each counted as it left
    const inFlight = [meter.send(10), meter.send(10), meter.send(10, true)];
    expect(() => meter.send(10)).toThrow(BudgetReached);
    expect(meter.reached).toBe('max_requests');
    inFlight.forEach((o) => o.received(5));
    expect(meter.usage).toEqual({ requests: 3, tokens_sent: 30, tokens_received: 15 });
    expect(meter.retries).toBe(1);
    // once reached, nothing more: not even a request that would fit
    expect(() => new SpendMeter({ max_tokens: 100 }).send(101)).toThrow(BudgetReached);
  });

  it('counts tokens sent and read against max_tokens: a request whose words would cross it is never sent', () => {
    const meter = new SpendMeter({ max_tokens: 100 });
    meter.send(40).received(30);
    expect(() => meter.send(31)).toThrow(expect.objectContaining({ limit: 'max_tokens' }));
    expect(meter.usage).toEqual({ requests: 1, tokens_sent: 40, tokens_received: 30 });
  });

  it('holds an answer at what its bytes may carry while it is read, and cuts it where it would cross', () => {
    const meter = new SpendMeter({ max_tokens: 100 });
    const first = meter.send(50);
    // 60 bytes read: at most 30 tokens of text
    first.reading(60);
    expect(() => meter.send(21)).toThrow(BudgetReached);
    const fresh = new SpendMeter({ max_tokens: 100 });
    const answer = fresh.send(50);
    answer.reading(60);
    // what it was read as, never more than its bytes held
    answer.received(12);
    expect(fresh.usage.tokens_received).toBe(12);
    const long = fresh.send(10);
    long.reading(40);
    expect(() => long.reading(80)).toThrow(expect.objectContaining({ limit: 'max_tokens' }));
    long.cut();
    // the cut answer counts at the bound its bytes gave before the cut: the total stays within the budget
    expect(fresh.usage).toEqual({ requests: 2, tokens_sent: 60, tokens_received: 32 });
    expect(fresh.usage.tokens_sent + fresh.usage.tokens_received).toBeLessThanOrEqual(100);
  });

  it('counts cost at the prices against max_cost, and a failed request as a request with no answer', () => {
    const meter = new SpendMeter({ max_cost: 0.001, price_in: 10, price_out: 20 });
    // 60 tokens in = 0.0006
    meter.send(60).failed();
    expect(meter.usage).toEqual({ requests: 1, tokens_sent: 60, tokens_received: 0 });
    expect(() => meter.send(41)).toThrow(expect.objectContaining({ limit: 'max_cost' }));
  });

  it('without a budget, only counts', () => {
    const meter = new SpendMeter();
    for (let i = 0; i < 1000; i++) meter.send(100).received(100);
    expect(meter.usage).toEqual({ requests: 1000, tokens_sent: 100_000, tokens_received: 100_000 });
    expect(meter.reached).toBeNull();
  });
});
