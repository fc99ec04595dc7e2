import { costOf, hasLimit, limitPassed, ScanBudget, ScanSpending, TOKEN_ESTIMATE, Unfinished, Usage } from './budget';
import type { Profile } from './profile';

/**
 * A scan's plan, known before its first request: the requests it sends per phase, the tokens and
 * the time they take, their cost at the target's prices, and apart from the target's the attacker
 * and judge models' requests. Each figure is a range: `min` when nothing escalates or is amplified,
 * `max` when every escalation and amplification budget is spent (and an agent takes every tool
 * round it may), `likely` from what scans of similar targets sent. The scanner makes it
 * (libs/scanner engine/request-plan.ts), records it when the scan starts, and counts the scan's
 * progress against it; the API and the CLI show it without starting a scan.
 */
export interface Range {
  min: number;
  likely: number;
  max: number;
}

/** the phases that send requests to the target (analyze and report send none) */
export const PLANNED_PHASES = ['recon', 'probe', 'amplify'] as const;
export type PlannedPhase = (typeof PLANNED_PHASES)[number];

/** Requests and tokens of a model the scan uses besides the target (ATTACKER_URL, JUDGE_URL). */
export interface ModelPlan {
  requests: Range;
  tokens: { sent: Range; received: Range };
}

/**
 * Where the pace the time is counted at comes from: the target's max_requests_per_second, a
 * preflight asked for, the target's previous scan, or an assumption said as one.
 */
export const PACE_SOURCES = ['told', 'measured', 'previous_scan', 'assumed'] as const;
export type PaceSource = (typeof PACE_SOURCES)[number];

/** Whether the plan reaches a budget: never, only if the scan runs long, or before its least work is done. */
export const BUDGET_OUTLOOKS = ['holds', 'may_stop', 'stops'] as const;
export type BudgetOutlook = (typeof BUDGET_OUTLOOKS)[number];

export interface RequestPlan {
  profile: Profile;
  requests: Range;
  by_phase: Record<PlannedPhase, Range>;
  /** estimated (TOKEN_ESTIMATE): the prompts the plan sends, each with the conversation before it */
  tokens: { sent: Range; received: Range; estimate: string };
  /** wall time at `pace` */
  seconds: Range;
  pace: { requests_per_second: number; source: PaceSource };
  /** the tokens an answer is counted at (answers are the one part the plan cannot read in advance) */
  answer_tokens: { per_answer: number; source: 'assumed' | 'previous_scan' };
  /** at the prices given, in their currency (absent without prices) */
  cost?: Range;
  attacker?: ModelPlan;
  judge?: ModelPlan;
  /** the budget the scan runs with, and whether the plan reaches it */
  budget?: ScanBudget & { outlook: BudgetOutlook };
}

export const range = (min: number, likely: number, max: number): Range => ({ min, likely: Math.min(max, Math.max(min, likely)), max });
export const addRanges = (...ranges: Range[]): Range => ranges.reduce((a, b) => ({ min: a.min + b.min, likely: a.likely + b.likely, max: a.max + b.max }), range(0, 0, 0));
export const mapRange = (r: Range, f: (n: number) => number): Range => range(f(r.min), f(r.likely), f(r.max));

/** seconds `requests` take at `perSecond`, rounded up */
export const secondsAt = (requests: number, perSecond: number): number => (perSecond > 0 ? Math.ceil(requests / perSecond) : 0);

/** What the prices make of the token ranges; null without prices. */
export function costRange(tokens: { sent: Range; received: Range }, prices: ScanBudget | null | undefined): Range | null {
  const at = (k: keyof Range) => costOf({ tokens_sent: tokens.sent[k], tokens_received: tokens.received[k] }, prices);
  const [min, likely, max] = [at('min'), at('likely'), at('max')];
  return min === null || likely === null || max === null ? null : { min, likely, max };
}

/** Whether a scan of this plan reaches `budget`: already with its least work, only with more, or not at all. */
export function budgetOutlook(plan: Pick<RequestPlan, 'requests' | 'tokens'>, budget: ScanBudget): BudgetOutlook {
  const at = (k: keyof Range): Usage => ({ requests: plan.requests[k], tokens_sent: plan.tokens.sent[k], tokens_received: plan.tokens.received[k] });
  if (!hasLimit(budget)) return 'holds';
  if (limitPassed(at('min'), budget)) return 'stops';
  return limitPassed(at('max'), budget) ? 'may_stop' : 'holds';
}


/**
 * What a target's previous scan tells the plan of its next one: what it spent (a scan of the same
 * profile sends much the same again: its prompts are seeded by the target) and the pace it kept. Only
 * a scan that completed says it: one cut short spent less than its plan would.
 */
export function knownFrom(previous: { status: string; spending?: ScanSpending | null } | null | undefined): { previous: Usage; pace: { requests_per_second: number; source: 'previous_scan' } | null } | null {
  const spending = previous?.status === 'completed' ? previous.spending : null;
  if (!spending || spending.target.requests <= 0) return null;
  const perSecond = spending.seconds > 0 ? spending.target.requests / spending.seconds : 0;
  return { previous: spending.target, pace: perSecond > 0 ? { requests_per_second: perSecond, source: 'previous_scan' } : null };
}

/** What a scan spent, beside what its plan said: every view of a finished scan shows this one fold. */
export interface SpentBesidePlan {
  requests: { sent: number; retries: number; plan: Range | null; within_plan: boolean | null };
  tokens: { sent: number; received: number; plan: { sent: Range; received: Range } | null; estimate: string };
  /** at the scan's prices, in their currency (null without prices) */
  cost: { spent: number; plan: Range | null } | null;
  /** seconds the scan ran against its target */
  seconds: number;
  /** the models', apart from the target's */
  attacker?: Usage & { plan: Range | null };
  judge?: Usage & { plan: Range | null };
}

export function spentBesidePlan(spending: ScanSpending, plan: RequestPlan | null | undefined, budget: ScanBudget | null | undefined): SpentBesidePlan {
  const { target } = spending;
  const cost = costOf(target, budget);
  const model = (usage: Usage | undefined, planned: ModelPlan | undefined) => usage && { ...usage, plan: planned?.requests ?? null };
  const attacker = model(spending.attacker, plan?.attacker);
  const judge = model(spending.judge, plan?.judge);
  return {
    requests: { sent: target.requests, retries: spending.retries ?? 0, plan: plan?.requests ?? null, within_plan: plan ? target.requests >= plan.requests.min && target.requests <= plan.requests.max : null },
    tokens: { sent: target.tokens_sent, received: target.tokens_received, plan: plan ? { sent: plan.tokens.sent, received: plan.tokens.received } : null, estimate: TOKEN_ESTIMATE },
    cost: cost === null ? null : { spent: cost, plan: plan?.cost ?? null },
    seconds: spending.seconds,
    ...(attacker && { attacker }),
    ...(judge && { judge }),
  };
}

const count = (n: number) => n.toLocaleString('en');
/** `95..816, likely 260` */
export const rangeWords = (r: Range, unit = (n: number) => count(n)): string => `${unit(r.min)}..${unit(r.max)}, likely ${unit(r.likely)}`;

/**
 * What a scan spent in one line, as the CLI's last lines and the reports say it: "212 requests sent
 * (plan 95..816, likely 260), 3 of them retries; 41,200 tokens sent, 18,100 received (estimated)".
 */
export function spentWords(s: SpentBesidePlan): string {
  const plan = s.requests.plan ? ` (plan ${rangeWords(s.requests.plan)})` : '';
  const retries = s.requests.retries ? `, ${count(s.requests.retries)} of them retries` : '';
  const cost = s.cost ? `; cost ${s.cost.spent}${s.cost.plan ? ` (plan ${rangeWords(s.cost.plan, String)})` : ''}` : '';
  return `${count(s.requests.sent)} requests sent${plan}${retries}; ${count(s.tokens.sent)} tokens sent, ${count(s.tokens.received)} received (estimated)${cost}`;
}

/** Where a budget stopped a scan, in the words every view says it: "the amplify phase; categories LLM01:2025, LLM06:2025" */
export function unfinishedWords(u: Unfinished): string {
  const phases = `the ${u.phases.join(', ')} phase${u.phases.length === 1 ? '' : 's'}`;
  return `stopped at its budget (${u.limit}): not finished: ${phases}${u.categories.length ? `; categories ${u.categories.join(', ')}` : ''}`;
}
