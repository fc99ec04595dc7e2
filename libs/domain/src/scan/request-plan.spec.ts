import { budgetOutlook, knownFrom, range, RequestPlan, spentBesidePlan, spentWords, unfinishedWords } from './request-plan';

const plan = {
  requests: range(25, 58, 166), tokens: { sent: range(3_000, 10_000, 230_000), received: range(3_000, 7_000, 20_000), estimate: '' },
  cost: range(0.002, 0.006, 0.05), attacker: { requests: range(0, 6, 8), tokens: { sent: range(0, 1, 2), received: range(0, 1, 2) } },
} as unknown as RequestPlan;

describe("a scan's plan beside what it spent", () => {
  it("says whether a budget stops the scan even at the plan's least, only if it runs long, or not at all", () => {
    expect(budgetOutlook(plan, { max_requests: 20 })).toBe('stops');
    expect(budgetOutlook(plan, { max_requests: 40 })).toBe('may_stop');
    expect(budgetOutlook(plan, { max_requests: 200, max_tokens: 1_000_000 })).toBe('holds');
    expect(budgetOutlook(plan, { price_in: 1, price_out: 1 })).toBe('holds');
  });

  it('puts what was sent beside the range, the models apart, and says it in one line', () => {
    const spent = spentBesidePlan(
      { target: { requests: 40, tokens_sent: 4_550, tokens_received: 62_172 }, retries: 2, attacker: { requests: 5, tokens_sent: 10, tokens_received: 3 }, seconds: 12 },
      plan, { price_in: 0.15, price_out: 0.6 },
    );
    expect(spent.requests).toEqual({ sent: 40, retries: 2, plan: plan.requests, within_plan: true });
    expect(spent.cost).toEqual({ spent: 0.037986, plan: plan.cost });
    expect(spent.attacker).toEqual({ requests: 5, tokens_sent: 10, tokens_received: 3, plan: plan.attacker!.requests });
    expect(spentWords(spent)).toBe('40 requests sent (plan 25..166, likely 58), 2 of them retries; 4,550 tokens sent, 62,172 received (estimated); cost 0.037986 (plan 0.002..0.05, likely 0.006)');
    const unplanned = spentBesidePlan({ target: { requests: 3, tokens_sent: 1, tokens_received: 1 }, seconds: 1 }, null, null);
    expect(unplanned.requests.within_plan).toBeNull();
    expect(spentWords(unplanned)).toBe('3 requests sent; 1 tokens sent, 1 received (estimated)');
  });

  it('says what a budget left unfinished', () => {
    expect(unfinishedWords({ limit: 'max_requests', phases: ['amplify'], categories: ['LLM01:2025', 'LLM06:2025'] })).toBe(
      'stopped at its budget (max_requests): not finished: the amplify phase; categories LLM01:2025, LLM06:2025',
    );
  });

  it("learns from a target's previous completed scan only: what it spent and the pace it kept", () => {
    const spending = { target: { requests: 100, tokens_sent: 10, tokens_received: 20 }, seconds: 50 };
    expect(knownFrom({ status: 'completed', spending })).toEqual({ previous: spending.target, pace: { requests_per_second: 2, source: 'previous_scan' } });
    expect(knownFrom({ status: 'completed_partial', spending })).toBeNull();
    expect(knownFrom({ status: 'completed', spending: null })).toBeNull();
    expect(knownFrom(null)).toBeNull();
  });
});
