import {
  addRanges, budgetOutlook, costRange, estimateTokens, mapRange, ModelPlan, PaceSource, ProbeSelection, Profile, range, Range, RequestPlan, ScanBudget, secondsAt, takesTools,
  TOKEN_ESTIMATE, ToolDefinition, Usage,
} from '@gauntlet/domain';
import type { ApiFormat, ScanMode } from '@gauntlet/domain';
import { AGENT_STEPS } from '../agents/runtime';
import { ATTACKER_INSTRUCTION_CHARS } from '../attacker/llm-attacker';
import { CallbackSetup, plantsCallbacks } from '../callbacks/planting';
import { applyChain, Converter } from '../converters/converter';
import { converterById } from '../converters/registry';
import { JUDGE_INSTRUCTION_CHARS } from '../detectors/llm-judge';
import { discloses, offersTools, Probe, renderProbe } from '../probes/probe';
import { RECON_MESSAGE } from './attempts';
import { SINGLES } from './escalation';
import { chainsFor, probesOfScan } from './plan';
import { PROFILE_PLANS } from './types';

/**
 * What one scan will send, worked out before it sends anything: a pure function of the target's
 * settings, the profile, the selection and the seed (the prompts are the seeded catalogue's, so
 * their words and tokens are known), plus what is known of the target (its pace, its previous
 * scan). The scan records it as it starts and counts its progress against it; the API's plan_only
 * and `gauntlet scan --plan` show it without starting one.
 *
 * `min`: nothing escalates or is amplified and no agent calls a tool; `max`: every escalation,
 * attacker and amplification budget is spent and an agent takes every tool round it may (an upper
 * bound on a scan without errors: a retry after an error, or a harmless message asking whether a
 * silent target still answers, is a request beyond it). `likely`: the target's previous scan of
 * the same profile when there is one (its seeds make it send the same again), else the shares of
 * those budgets that scans of our lab's targets and the guarded bots spent (bench/plan-accuracy.ts).
 */
export interface PlanInput {
  target: { scan_mode: ScanMode; api_format: ApiFormat | null; max_requests_per_second: number | null };
  /** the tools its agent is offered: listed (the engine, after listing them), or not listed yet (an MCP server the plan does not call) */
  tools: readonly ToolDefinition[] | 'unlisted';
  profile: Profile;
  selection?: ProbeSelection;
  seed: string;
  /** a callback listener hears the scan (probes that plant addresses run) */
  callbacks: Pick<CallbackSetup, 'baseUrl' | 'domain'> | null;
  /** ATTACKER_URL and JUDGE_URL are configured: their requests are planned apart */
  models: { attacker: boolean; judge: boolean };
  budget?: ScanBudget | null;
  /** the pace the target was measured at (a preflight, its previous scan); the told max_requests_per_second comes first */
  pace?: { requests_per_second: number; source: Extract<PaceSource, 'measured' | 'previous_scan'> } | null;
  /** what the target's previous finished scan of this profile (and selection) spent */
  previous?: Usage | null;
}

/**
 * The shares of a budget a scan likely spends, from bench/plan-accuracy.ts over the lab's personas,
 * the three families of guarded bots and the lab's real model: escalation runs wherever a category
 * resisted in plain text, which nearly every target does somewhere, and spends most of its budget;
 * amplification spends what the probe phase and escalation found to finish and vary, about half;
 * an agent offered tools takes 15 % of the tool rounds it may (one message in three or so calls a
 * tool once); the attacker model runs its rounds on most
 * categories still resisting; the judge is asked about answers the rules are unsure of, a third.
 */
const LIKELY = { escalation: 0.85, amplify: 0.45, toolRounds: 0.15, attacker: 0.7, judge: 0.35 };

/**
 * What a target's answer is counted at before any answer is known: a short paragraph. The one
 * figure of the plan not read from the prompts; a target's previous scan replaces it.
 */
const ASSUMED_ANSWER_TOKENS = 120;
/** a tool round in an agent's history: its call and the result Gauntlet answered with */
const TOOL_ROUND_TOKENS = 80;
/** an MCP server's tools before its scan lists them: a handful of definitions */
const UNLISTED_TOOL_TOKENS = 600;
/** a model answering one request in this long, at the profile's first concurrency: the pace assumed when none is known */
const ASSUMED_SECONDS_PER_ANSWER = 2;
/** the judge reads each turn up to 4,000 characters and answers a short JSON object (detectors/llm-judge.ts) */
const JUDGE = { turnTokens: 1_000, frame: 40, answer: { likely: 40, max: 120 } };
/** the attacker reads at most four tries of 2,000 + 1,500 characters and writes at most 8,000 (attacker/llm-attacker.ts) */
const ATTACKER = { triesTokens: 4 * 875, answer: { likely: 150, max: 2_000 + 100 }, prompt: { likely: 150, max: 2_000 } };

/** Requests and tokens of one conversation, with and without every tool round its agent may take. */
interface Cost {
  requests: Range;
  sent: Range;
  received: Range;
}

const none = (): Cost => ({ requests: range(0, 0, 0), sent: range(0, 0, 0), received: range(0, 0, 0) });
const add = (a: Cost, b: Cost): Cost => ({ requests: addRanges(a.requests, b.requests), sent: addRanges(a.sent, b.sent), received: addRanges(a.received, b.received) });

/**
 * One conversation of `turns`: each request sends the conversation so far (a model API has no memory
 * between requests), answers counted at `answer` tokens. `tools`: the tokens of the tool definitions
 * offered with every request, or null when none are; then each message may take AGENT_STEPS
 * requests, each round adding a call and its result to the history.
 */
function conversation(turns: readonly string[], answer: number, tools: number | null): Cost {
  const steps = tools === null ? 1 : AGENT_STEPS;
  const offered = tools ?? 0;
  const rounds = (extra: number) => {
    let sent = 0;
    let history = 0;
    for (const turn of turns) {
      const said = estimateTokens(turn);
      for (let step = 0; step <= extra; step++) sent += offered + history + said + step * TOOL_ROUND_TOKENS;
      history += said + answer + extra * TOOL_ROUND_TOKENS;
    }
    return { requests: turns.length * (extra + 1), sent, received: turns.length * (extra + 1) * answer };
  };
  const least = rounds(0);
  const most = rounds(steps - 1);
  const likely = (k: 'requests' | 'sent' | 'received') => least[k] + Math.round((most[k] - least[k]) * LIKELY.toolRounds);
  return { requests: range(least.requests, likely('requests'), most.requests), sent: range(least.sent, likely('sent'), most.sent), received: range(least.received, likely('received'), most.received) };
}

/**
 * Requests and tokens a budget of `units` (user messages, as escalation and amplification count
 * them) may send over `candidates` (the conversations it picks from): none at least, the likely
 * share of it, at most every unit spent on the costliest conversations a message.
 */
function budgetSpent(units: number, share: number, candidates: readonly { units: number; cost: Cost }[]): Cost {
  if (!units || !candidates.length) return none();
  const perUnit = (k: 'requests' | 'sent' | 'received', at: 'likely' | 'max') => candidates.map((c) => c.cost[k][at] / Math.max(1, c.units));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const figure = (k: 'requests' | 'sent' | 'received') => range(0, Math.round(units * share * mean(perUnit(k, 'likely'))), Math.ceil(units * Math.max(...perUnit(k, 'max'))));
  return { requests: figure('requests'), sent: figure('sent'), received: figure('received') };
}

/** the stacks escalation tries once singles fail, as it makes them before any tactic has worked (escalation.ts DEFAULT_BEST) */
const DEFAULT_STACKS: Converter[][] = (() => {
  const [conversation, encode, answer] = ['crescendo-3', 'base64', 'answer-base64'].map((id) => converterById(id)!);
  return [[answer, encode], [answer, conversation], [encode, conversation], [answer, encode, conversation]];
})();

/** The plan, and the units of work a scan's progress bar stands for (user messages, as the engine advances it). */
export function planScanWork(input: PlanInput): { plan: RequestPlan; progressUnits: number } {
  const profile = PROFILE_PLANS[input.profile];
  const { seed } = input;
  const answer = input.previous && input.previous.requests > 0 ? Math.max(1, Math.round(input.previous.tokens_received / input.previous.requests)) : ASSUMED_ANSWER_TOKENS;
  // a chat page or a format without tool calling is offered none, whatever its setting (resolveAgentTools)
  const agentic = takesTools(input.target);
  const listed = !agentic ? [] : input.tools === 'unlisted' ? null : input.tools;
  // tools not listed yet: at least none fit (agent probes skipped), at most every agent probe runs with them
  const fewest = probesOfScan(input.profile, input.selection, input.callbacks, listed ?? []);
  const most = listed ? fewest : probesOfScan(input.profile, input.selection, input.callbacks, 'any');
  const toolTokens = listed ? (listed.length ? estimateTokens(JSON.stringify(listed)) : null) : UNLISTED_TOOL_TOKENS;
  const toolsFor = (probe: Probe) => (agentic && toolTokens !== null && offersTools(probe) ? toolTokens : null);
  const renderings = new Map<string, string[]>();
  const rendered = (probe: Probe) => {
    let turns = renderings.get(probe.id);
    if (!turns) renderings.set(probe.id, (turns = renderProbe(probe, seed).turns.map((t) => plantedLength(t, input.callbacks))));
    return turns;
  };

  // the probe phase: every probe once, as written
  const probeCost = (probes: readonly Probe[]) => probes.reduce((sum, p) => add(sum, conversation(rendered(p), answer, toolsFor(p))), none());
  const least = probeCost(fewest);
  const widest = probeCost(most);
  const probe: Cost = {
    requests: range(least.requests.min, least.requests.likely, widest.requests.max), sent: range(least.sent.min, least.sent.likely, widest.sent.max),
    received: range(least.received.min, least.received.likely, widest.received.max),
  };
  const recon = conversation([RECON_MESSAGE], answer, null);

  // escalation and amplification: a budget of user messages over conversations through tactics. Escalation
  // sends each category's leads (its first probes) through single tactics and stacks; amplification sends
  // the probes through their seeded chains. Rendering every probe through every tactic would take the
  // plan a second of CPU: these are the conversations the budgets are really spent on.
  const escalated = most.filter((p) => !plantsCallbacks(p));
  const leads = leadsOf(escalated, profile.leadsPerCategory);
  const stacks = Number.isFinite(profile.stackAfter) ? DEFAULT_STACKS : [];
  const through = (p: Probe, chain: Converter[]) => {
    const turns = applyChain(chain, rendered(p), seed, `plan:${p.id}`, { category: p.category });
    return { units: turns.length, cost: conversation(turns, answer, toolsFor(p)) };
  };
  const fits = (p: Probe) => (chain: Converter[]) => chain.every((c) => c.layer !== 'answer' || discloses(p));
  const escalating = leads.flatMap((p) => [...SINGLES.map((c) => [c]), ...stacks].filter(fits(p)).map((chain) => through(p, chain)));
  const amplifying = escalated.flatMap((p) => chainsFor(p, profile, seed).map((chain) => through(p, chain)));
  const candidates = [...escalating, ...amplifying];
  const escalation = budgetSpent(profile.escalationBudget, LIKELY.escalation, escalating);
  const amplification = budgetSpent(profile.amplifyBudget, LIKELY.amplify, candidates);
  // the attacker's rewrites go to the lead of each category still resisting, one message a round
  const categories = new Set(escalated.map((p) => p.category)).size;
  const attackerRounds = input.models.attacker ? profile.attackerRounds * categories : 0;
  const attackerToTarget = attackerMessages(attackerRounds, answer, toolTokens);
  const amplify = add(add(escalation, amplification), attackerToTarget);
  const target = add(add(recon, probe), amplify);

  // likely: what the target's previous scan of this profile sent, when there is one
  const previous = input.previous;
  const likelyOf = (r: Range, known: number | undefined) => (known !== undefined ? range(r.min, known, r.max) : r);
  const requests = likelyOf(target.requests, previous?.requests);
  const sent = likelyOf(target.sent, previous?.tokens_sent);
  const received = likelyOf(target.received, previous?.tokens_received);

  const told = input.target.max_requests_per_second;
  const pace = told && told > 0
    ? { requests_per_second: told, source: 'told' as const }
    : input.pace && input.pace.requests_per_second > 0 ? input.pace : { requests_per_second: profile.concurrency / ASSUMED_SECONDS_PER_ANSWER, source: 'assumed' as const };
  const tokens = { sent, received, estimate: TOKEN_ESTIMATE };
  const cost = costRange(tokens, input.budget);
  // conversations the judge may be asked about: one per attempt (escalation and amplification spend a message or more each)
  const longest = Math.max(1, ...candidates.map((c) => c.units));
  const judged = range(0, fewest.length + Math.round((escalation.requests.likely + amplification.requests.likely) / 2) + Math.round(attackerRounds * LIKELY.attacker), most.length + profile.escalationBudget + profile.amplifyBudget + attackerRounds);

  const plan: RequestPlan = {
    profile: input.profile,
    requests,
    by_phase: { recon: recon.requests, probe: probe.requests, amplify: amplify.requests },
    tokens,
    seconds: mapRange(requests, (n) => secondsAt(n, pace.requests_per_second)),
    pace: { requests_per_second: Math.round(pace.requests_per_second * 1000) / 1000, source: pace.source },
    answer_tokens: { per_answer: answer, source: previous && previous.requests > 0 ? 'previous_scan' : 'assumed' },
    ...(cost && { cost }),
    ...(input.models.attacker && { attacker: attackerPlan(attackerRounds, escalated) }),
    ...(input.models.judge && { judge: judgePlan(judged, fewest.map(rendered), longest, answer) }),
  };
  if (input.budget) plan.budget = { ...input.budget, outlook: budgetOutlook(plan, input.budget) };
  // the bar's units: a probe is one unit, escalation and amplification count their messages (ScanRecorder)
  const progressUnits = 1 + most.length + profile.escalationBudget + attackerRounds + profile.amplifyBudget + 2;
  return { plan, progressUnits };
}

export const planScan = (input: PlanInput): RequestPlan => planScanWork(input).plan;

/** each category's first `n` probes: the leads escalation rotates its tactics over when none half-worked */
function leadsOf(probes: readonly Probe[], n: number): Probe[] {
  const taken = new Map<string, number>();
  return probes.filter((p) => {
    const k = taken.get(p.category) ?? 0;
    taken.set(p.category, k + 1);
    return k < n;
  });
}

/**
 * A turn as it is sent: each `{{callback...}}` becomes an address of the listener's (its base and a
 * token of some 40 characters), which the plan counts without minting one.
 */
function plantedLength(turn: string, callbacks: Pick<CallbackSetup, 'baseUrl'> | null): string {
  return turn.replace(/\{\{callback(?::(?:render|domain))?\}\}/g, () => `${callbacks?.baseUrl ?? 'http://127.0.0.1/oob'}/${'t'.repeat(40)}`);
}

/** the attacker model: one request a round; its instructions, the goal and up to four tries in, a prompt out */
function attackerPlan(rounds: number, probes: readonly Probe[]): ModelPlan {
  const instructions = Math.ceil(ATTACKER_INSTRUCTION_CHARS / 4);
  const goal = probes.length ? Math.round(probes.reduce((n, p) => n + estimateTokens(p.description) + p.turns.reduce((m, t) => m + estimateTokens(t), 0), 0) / probes.length) : 0;
  const likelyRounds = Math.round(rounds * LIKELY.attacker);
  return {
    requests: range(0, likelyRounds, rounds),
    tokens: {
      sent: range(0, likelyRounds * (instructions + goal + 2 * (ATTACKER.prompt.likely + ASSUMED_ANSWER_TOKENS)), rounds * (instructions + goal + ATTACKER.triesTokens)),
      received: range(0, likelyRounds * ATTACKER.answer.likely, rounds * ATTACKER.answer.max),
    },
  };
}

/**
 * the judge model: at most one request a conversation, only where the rules are unsure; its
 * instructions and the conversation in (each turn clipped), a short JSON verdict out
 */
function judgePlan(conversations: Range, probes: readonly string[][], longestTurns: number, answer: number): ModelPlan {
  const instructions = Math.ceil(JUDGE_INSTRUCTION_CHARS / 4) + JUDGE.frame;
  const typical = probes.length ? probes.reduce((n, turns) => n + turns.reduce((m, t) => m + Math.min(JUDGE.turnTokens, estimateTokens(t)) + answer, 0), 0) / probes.length : answer;
  const likely = Math.round(conversations.likely * LIKELY.judge);
  return {
    requests: range(0, likely, conversations.max),
    tokens: {
      sent: range(0, Math.round(likely * (instructions + typical)), conversations.max * (instructions + 2 * longestTurns * JUDGE.turnTokens)),
      received: range(0, likely * JUDGE.answer.likely, conversations.max * JUDGE.answer.max),
    },
  };
}

/**
 * the attacker's prompts to the target: a message a round (an agent's rounds with tools), its length
 * what the attacker writes (at most 8,000 characters)
 */
function attackerMessages(rounds: number, answer: number, tools: number | null): Cost {
  if (!rounds) return none();
  const steps = tools === null ? 1 : AGENT_STEPS;
  const likely = Math.round(rounds * LIKELY.attacker);
  const offered = tools ?? 0;
  return {
    requests: range(0, likely, rounds * steps),
    sent: range(0, likely * (offered + ATTACKER.prompt.likely), rounds * steps * (offered + ATTACKER.prompt.max + (steps - 1) * TOOL_ROUND_TOKENS)),
    received: range(0, likely * answer, rounds * steps * answer),
  };
}
