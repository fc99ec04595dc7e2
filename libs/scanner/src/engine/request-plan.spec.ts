import { RequestPlan } from '@gauntlet/domain';
import { decoyToolSet } from '../agents/decoy';
import { AGENT_STEPS } from '../agents/runtime';
import { probesFor } from '../probes/catalogue';
import { offersTools } from '../probes/probe';
import { PlanInput, planScan } from './request-plan';
import { PROFILE_PLANS } from './types';

const api = { scan_mode: 'api' as const, api_format: 'openai' as const, max_requests_per_second: null };
const page = { scan_mode: 'browser' as const, api_format: null, max_requests_per_second: null };
const plan = (over: Partial<PlanInput> = {}): RequestPlan =>
  planScan({ target: page, tools: [], profile: 'quick', seed: 'plan-spec', callbacks: null, models: { attacker: false, judge: false }, ...over });

describe('the plan of a scan', () => {
  const quick = probesFor('quick');
  const turns = quick.reduce((n, p) => n + p.turns.length, 0);
  const { escalationBudget, amplifyBudget } = PROFILE_PLANS.quick;

  it('given a chat page (no tools): min is the greeting and every probe once; max adds every escalation and amplification message', () => {
    const p = plan();
    expect(p.by_phase.recon).toEqual({ min: 1, likely: 1, max: 1 });
    expect(p.by_phase.probe).toMatchObject({ min: turns, max: turns });
    expect(p.by_phase.amplify).toMatchObject({ min: 0, max: escalationBudget + amplifyBudget });
    expect(p.requests).toMatchObject({ min: 1 + turns, max: 1 + turns + escalationBudget + amplifyBudget });
    expect(p.requests.likely).toBeGreaterThan(p.requests.min);
    expect(p.requests.likely).toBeLessThan(p.requests.max);
  });

  it("given an agent offered tools: the probes that are offered them may take every tool round a message allows", async () => {
    const { tools } = await decoyToolSet.list('decoy', { allowPrivate: false, timeoutMs: 1_000 });
    const p = plan({ target: api, tools });
    const offered = quick.filter(offersTools).reduce((n, pr) => n + pr.turns.length, 0);
    expect(offered).toBeGreaterThan(0);
    expect(p.by_phase.probe).toMatchObject({ min: turns, max: turns + offered * (AGENT_STEPS - 1) });
    expect(p.by_phase.amplify.max).toBe((escalationBudget + amplifyBudget) * AGENT_STEPS);
    // tools an MCP server lists are not known before its scan lists them: the range spans both
    const unlisted = plan({ target: api, tools: 'unlisted', profile: 'standard' });
    const listed = plan({ target: api, tools, profile: 'standard' });
    expect(unlisted.by_phase.probe.min).toBeLessThan(listed.by_phase.probe.min);
    expect(unlisted.by_phase.probe.max).toBeGreaterThanOrEqual(listed.by_phase.probe.max);
  });

  it('counts tokens from the prompts it will send, each with the conversation before it; the same input, the same plan', () => {
    const p = plan();
    expect(p.tokens.sent.min).toBeGreaterThan(turns * 5);
    expect(p.tokens.sent.min).toBeLessThanOrEqual(p.tokens.sent.likely);
    expect(p.tokens.sent.likely).toBeLessThanOrEqual(p.tokens.sent.max);
    // answers are the one part not read from the prompts: counted at an assumed length
    expect(p.tokens.received).toMatchObject({ min: p.requests.min * 120, max: p.requests.max * 120 });
    expect(p.answer_tokens).toEqual({ per_answer: 120, source: 'assumed' });
    expect(p.tokens.estimate).toMatch(/4 characters of English a token/);
    expect(plan()).toEqual(p);
  });

  it("takes the target's previous scan for its likely figures and its answers' length", () => {
    const p = plan({ previous: { requests: 50, tokens_sent: 5_000, tokens_received: 2_500 } });
    expect(p.requests.likely).toBe(50);
    expect(p.tokens.sent.likely).toBe(5_000);
    expect(p.answer_tokens).toEqual({ per_answer: 50, source: 'previous_scan' });
    // a previous scan outside the range does not move it: likely stays within min..max
    expect(plan({ previous: { requests: 5_000, tokens_sent: 1, tokens_received: 1 } }).requests.likely).toBe(p.requests.max);
  });

  it("counts the time at the told pace first, then a measured one, else at an assumed one it says is assumed", () => {
    const told = plan({ target: { ...page, max_requests_per_second: 2 }, pace: { requests_per_second: 50, source: 'measured' } });
    expect(told.pace).toEqual({ requests_per_second: 2, source: 'told' });
    expect(told.seconds).toEqual({ min: Math.ceil(told.requests.min / 2), likely: Math.ceil(told.requests.likely / 2), max: Math.ceil(told.requests.max / 2) });
    expect(plan({ pace: { requests_per_second: 50, source: 'measured' } }).pace.source).toBe('measured');
    expect(plan().pace.source).toBe('assumed');
  });

  it('gives the cost at the prices, and whether the budget will stop the scan, may, or holds', () => {
    expect(plan().cost).toBeUndefined();
    const priced = plan({ budget: { price_in: 1, price_out: 2 } });
    expect(priced.cost!.min).toBeCloseTo((priced.tokens.sent.min * 1 + priced.tokens.received.min * 2) / 1_000_000, 6);
    expect(plan({ budget: { max_requests: 10 } }).budget).toEqual({ max_requests: 10, outlook: 'stops' });
    expect(plan({ budget: { max_requests: 40 } }).budget?.outlook).toBe('may_stop');
    expect(plan({ budget: { max_requests: 10_000 } }).budget?.outlook).toBe('holds');
  });

  it("plans the attacker and judge models' requests apart from the target's", () => {
    const alone = plan();
    const both = plan({ models: { attacker: true, judge: true } });
    expect(both.attacker!.requests.max).toBe(PROFILE_PLANS.quick.attackerRounds * new Set(quick.map((p) => p.category)).size);
    expect(both.judge!.requests.min).toBe(0);
    expect(both.judge!.requests.max).toBeGreaterThanOrEqual(quick.length);
    // the attacker's rewrites are messages to the target too: they are in its amplify phase
    expect(both.by_phase.amplify.max).toBe(alone.by_phase.amplify.max + both.attacker!.requests.max);
    expect(alone.attacker).toBeUndefined();
    expect(alone.judge).toBeUndefined();
  });
});
