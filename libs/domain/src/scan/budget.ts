import { DomainError } from '../decider';

/**
 * What a scan may spend on its target, and the prices it is counted at. One owner: this module
 * parses, checks and describes every field, and each door (the API's DTOs and OpenAPI document,
 * gauntlet.yaml's JSON Schema, the CLI's options, a schedule, the scan decider) asks it.
 *
 * A budget holds exactly: a request that would cross it is never sent (the scanner counts before
 * sending, requests in flight included), and a scan that reaches it ends completed_partial with
 * the reason BUDGET_STOP and what it did not finish. Tokens are estimated (estimateTokens): what
 * was sent and what was read back, counted the same way the plan counts them.
 */
export interface ScanBudget {
  /** requests to the target, at most (retries and an agent's tool rounds are requests too) */
  max_requests?: number;
  /** tokens sent and received, at most */
  max_tokens?: number;
  /** cost at most, in the prices' currency: needs price_in and price_out */
  max_cost?: number;
  /** price of a million tokens sent to the target */
  price_in?: number;
  /** price of a million tokens received from the target */
  price_out?: number;
}

export type BudgetField = keyof ScanBudget;
/** the fields that stop a scan (the prices only say what a token costs) */
export type BudgetLimit = 'max_requests' | 'max_tokens' | 'max_cost';
export const BUDGET_LIMITS: readonly BudgetLimit[] = ['max_requests', 'max_tokens', 'max_cost'];

/** The reason a scan that reached its budget ends with (its status view, detail, reports, webhooks). */
export const BUDGET_STOP = 'stopped at its budget';

/** How one field reads and what it means, for every door that takes it. */
export interface BudgetFieldSpec {
  /** integer: a count; number: an amount with decimals */
  type: 'integer' | 'number';
  minimum: number;
  maximum: number;
  /** the CLI's option and its argument */
  flag: string;
  argument: string;
  description: string;
}

export const BUDGET_FIELDS: Record<BudgetField, BudgetFieldSpec> = {
  max_requests: {
    type: 'integer', minimum: 1, maximum: 10_000_000, flag: '--max-requests', argument: '<n>',
    description: 'requests to the target, at most: one more is never sent (retries and an agent\'s tool rounds count); a scan that reaches it ends completed_partial, "stopped at its budget"',
  },
  max_tokens: {
    type: 'integer', minimum: 1, maximum: 100_000_000_000, flag: '--max-tokens', argument: '<n>',
    description: 'tokens sent to and read from the target, at most (estimated: 4 characters of English a token, other characters one each); a scan that reaches it ends completed_partial',
  },
  max_cost: {
    // a millionth of the currency: what a cost is rounded to (a cost of 0 would stop a scan before its first request)
    type: 'number', minimum: 0.000001, maximum: 1_000_000, flag: '--max-cost', argument: '<amount>',
    description: 'cost at most, in the currency of price_in and price_out (both needed); a scan that reaches it ends completed_partial',
  },
  price_in: {
    type: 'number', minimum: 0, maximum: 100_000, flag: '--price-in', argument: '<price>',
    description: "the target's price of a million tokens sent to it: the plan shows the cost, and max_cost counts with it",
  },
  price_out: {
    type: 'number', minimum: 0, maximum: 100_000, flag: '--price-out', argument: '<price>',
    description: "the target's price of a million tokens it answers with",
  },
};

export const BUDGET_FIELD_NAMES = Object.keys(BUDGET_FIELDS) as BudgetField[];

/** The JSON Schema of one field (OpenAPI 3.0 and gauntlet.yaml's draft-07 schema alike). */
export function budgetFieldSchema(field: BudgetField): { type: 'integer' | 'number'; minimum: number; maximum: number; description: string } {
  const f = BUDGET_FIELDS[field];
  return { type: f.type, minimum: f.minimum, maximum: f.maximum, description: f.description };
}

/** what is wrong with one field's value, in words that follow the field's name; null when it is fine */
export function budgetValueProblem(field: BudgetField, value: unknown): string | null {
  const f = BUDGET_FIELDS[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a ${f.type === 'integer' ? 'whole number' : 'number'}`;
  if (f.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
  if (value < f.minimum) return `must be at least ${f.minimum}`;
  if (value > f.maximum) return `must be at most ${f.maximum.toLocaleString('en')}`;
  return null;
}

/** One field as typed (a command-line option): its value, or what is wrong with it. */
export function budgetValueFromText(field: BudgetField, text: string): { value: number } | { problem: string } {
  const value = /^\s*[0-9]+(\.[0-9]+)?\s*$/.test(text) ? Number(text) : Number.NaN;
  const problem = budgetValueProblem(field, value);
  return problem ? { problem } : { value };
}

/** The first problem of a budget as a whole: a field out of bounds, or max_cost without both prices. */
export function budgetProblem(budget: ScanBudget): { field: BudgetField; message: string } | null {
  for (const field of BUDGET_FIELD_NAMES) {
    if (budget[field] === undefined) continue;
    const problem = budgetValueProblem(field, budget[field]);
    if (problem) return { field, message: `${field} ${problem}` };
  }
  if (budget.max_cost !== undefined && (budget.price_in === undefined || budget.price_out === undefined)) {
    return { field: 'max_cost', message: 'max_cost needs price_in and price_out: a cost is counted from the tokens at those prices' };
  }
  if ((budget.price_in === undefined) !== (budget.price_out === undefined)) {
    return { field: budget.price_in === undefined ? 'price_in' : 'price_out', message: 'price_in and price_out come together: a scan sends and receives tokens' };
  }
  return null;
}

/** Throws the problem as the domain's invalid input (400), naming the field. */
export function requireValidBudget(budget: ScanBudget): void {
  const problem = budgetProblem(budget);
  if (problem) throw new DomainError('invalid', `${problem.message}.`, { field: problem.field });
}

/** A budget with only the fields set (the log keeps no empty object, nor undefined fields); null: none. */
export function budgetOf(given: Partial<Record<BudgetField, number | null | undefined>> | null | undefined): ScanBudget | null {
  if (!given) return null;
  const budget: ScanBudget = {};
  for (const field of BUDGET_FIELD_NAMES) if (typeof given[field] === 'number') budget[field] = given[field] as number;
  return Object.keys(budget).length ? budget : null;
}

/** whether a budget limits anything (prices alone do not) */
export const hasLimit = (budget: ScanBudget | null | undefined): boolean => Boolean(budget && BUDGET_LIMITS.some((l) => budget[l] !== undefined));

/** Requests and tokens one party of a scan spent (the target, the attacker model, the judge model). */
export interface Usage {
  requests: number;
  tokens_sent: number;
  tokens_received: number;
}

export const NO_USAGE: Usage = { requests: 0, tokens_sent: 0, tokens_received: 0 };

/**
 * The cost of `usage` at the budget's prices, rounded to a millionth of the currency; null without prices.
 */
export function costOf(usage: Pick<Usage, 'tokens_sent' | 'tokens_received'>, prices: Pick<ScanBudget, 'price_in' | 'price_out'> | null | undefined): number | null {
  if (prices?.price_in === undefined || prices.price_out === undefined) return null;
  return Math.round(usage.tokens_sent * prices.price_in + usage.tokens_received * prices.price_out) / 1_000_000;
}

/**
 * The limit `usage` would pass, or null when it stays within the budget. The one rule the scanner
 * applies before each request (with the request counted in) and while an answer is read.
 */
export function limitPassed(usage: Usage, budget: ScanBudget | null | undefined): BudgetLimit | null {
  if (!budget) return null;
  if (budget.max_requests !== undefined && usage.requests > budget.max_requests) return 'max_requests';
  if (budget.max_tokens !== undefined && usage.tokens_sent + usage.tokens_received > budget.max_tokens) return 'max_tokens';
  const cost = budget.max_cost !== undefined ? costOf(usage, budget) : null;
  if (cost !== null && cost > budget.max_cost!) return 'max_cost';
  return null;
}

/**
 * Tokens in a text, estimated without the target's tokenizer (each model has its own): English
 * runs about 4 characters a token (OpenAI's rule of thumb for its tokenizers, close for Llama's and
 * others'), and a character outside ASCII (another script, an emoji) is counted as a token of its
 * own, which most tokenizers spend on it or more. Encoded text (base64, hex) runs to more tokens
 * than this says: it is an estimate, said as one wherever it is shown.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) ascii++;
    // a surrogate pair is one character
    else if (c < 0xdc00 || c > 0xdfff) other++;
  }
  return Math.ceil(ascii / 4) + other;
}

/** how the estimate is said, in the plan and beside every figure of tokens */
export const TOKEN_ESTIMATE = '4 characters of English a token, other characters one each (an estimate: each model tokenizes its own way)';

/** What a scan spent, recorded when it ended: the target's, and apart from it the attacker's and the judge's models'. */
export interface ScanSpending {
  target: Usage;
  /** requests that were retries of one that failed or was throttled (counted in target.requests too) */
  retries?: number;
  attacker?: Usage;
  judge?: Usage;
  /** seconds the scan ran against its target: with target.requests, the pace it kept */
  seconds: number;
}

/** What a scan that stopped at its budget did not finish: the phases cut short or never reached, and the categories whose work was cut. */
export interface Unfinished {
  limit: BudgetLimit;
  phases: string[];
  categories: string[];
}
