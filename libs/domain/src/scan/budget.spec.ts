import { budgetOf, budgetProblem, costOf, estimateTokens, hasLimit, limitPassed } from './budget';

describe("a scan's budget", () => {
  it('is checked field by field by its owner, then as a whole: max_cost needs both prices, and prices come together', () => {
    expect(budgetProblem({ max_requests: 40, max_tokens: 100_000 })).toBeNull();
    expect(budgetProblem({ max_requests: 0 })).toEqual({ field: 'max_requests', message: 'max_requests must be at least 1' });
    expect(budgetProblem({ max_requests: 2.5 })?.message).toBe('max_requests must be a whole number');
    expect(budgetProblem({ max_tokens: Number.NaN })?.message).toBe('max_tokens must be a whole number');
    expect(budgetProblem({ max_cost: 0, price_in: 1, price_out: 1 })?.field).toBe('max_cost');
    expect(budgetProblem({ max_cost: 5 })).toEqual({ field: 'max_cost', message: 'max_cost needs price_in and price_out: a cost is counted from the tokens at those prices' });
    expect(budgetProblem({ price_in: 1 })?.field).toBe('price_out');
    expect(budgetProblem({ max_cost: 5, price_in: 0, price_out: 0.6 })).toBeNull();
  });

  it('keeps only the fields given, and limits a scan only with a max_ field', () => {
    expect(budgetOf({ max_requests: 40, max_tokens: undefined, max_cost: null })).toEqual({ max_requests: 40 });
    expect(budgetOf({})).toBeNull();
    expect(hasLimit({ price_in: 1, price_out: 2 })).toBe(false);
    expect(hasLimit({ max_tokens: 1 })).toBe(true);
  });

  it('says which limit a spend passes: requests, tokens sent and read together, cost at the prices', () => {
    const usage = { requests: 40, tokens_sent: 6_000, tokens_received: 4_000 };
    expect(limitPassed(usage, { max_requests: 40 })).toBeNull();
    expect(limitPassed({ ...usage, requests: 41 }, { max_requests: 40 })).toBe('max_requests');
    expect(limitPassed(usage, { max_tokens: 9_999 })).toBe('max_tokens');
    expect(costOf(usage, { price_in: 0.15, price_out: 0.6 })).toBe(0.0033);
    expect(limitPassed(usage, { max_cost: 0.003, price_in: 0.15, price_out: 0.6 })).toBe('max_cost');
    expect(limitPassed(usage, null)).toBeNull();
    expect(costOf(usage, {})).toBeNull();
  });

  it('estimates tokens as 4 characters of English a token, a character outside ASCII one each', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('Hello! What can you help me with?')).toBe(9);
    expect(estimateTokens('日本語')).toBe(3);
    // a character outside the basic plane (an emoji) is one character, not two
    expect(estimateTokens('ok 👍')).toBe(2);
  });
});
