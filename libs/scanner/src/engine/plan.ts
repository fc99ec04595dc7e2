import { Converter } from '../converters/converter';
import { CONVERTERS } from '../converters';
import { seededRng } from '../converters/random';
import { Verdict } from '../detectors/detector';
import { Probe } from '../probes/probe';
import { ProfilePlan } from './types';

export interface ProbeResult {
  probe: Probe;
  verdict: Verdict;
}

export interface AmplifyTask {
  probe: Probe;
  chain: Converter[];
}

/**
 * Catalogue order, dealt round-robin across categories: conversations of one kind (e.g. the
 * long answers of consumption probes) spread over the run instead of piling up at its end.
 */
export function interleaveByCategory<T extends { category: string }>(items: readonly T[]): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(item.category, [...(groups.get(item.category) ?? []), item]);
  const out: T[] = [];
  for (let i = 0; out.length < items.length; i++) for (const g of groups.values()) if (i < g.length) out.push(g[i]);
  return out;
}

/** Seeded converter chains for one probe; stacked chains put encodings last so the framing is encoded too. */
export function chainsFor(probe: Probe, plan: ProfilePlan, seed: string): Converter[][] {
  const shuffled = seededRng(seed, `chains:${probe.id}`).shuffle(CONVERTERS);
  const chains: Converter[][] = [];
  for (let i = 0; i < plan.chainsPerProbe && i < shuffled.length; i++) {
    const stacked = plan.maxChainLength > 1 && i === plan.chainsPerProbe - 1 && i + 1 < shuffled.length;
    const chain = stacked ? [shuffled[i], shuffled[i + 1]] : [shuffled[i]];
    chains.push(chain.sort((a, b) => Number(a.technique === 'encoding') - Number(b.technique === 'encoding')));
  }
  return chains;
}

/**
 * What to amplify, most promising first, cut to the profile's budget: half-successes (can a
 * converter finish the job?), then probes that resisted in categories where something else
 * succeeded, then (deep) a seeded sample of the rest, then full successes (which other
 * techniques also work).
 */
export function planAmplification(results: readonly ProbeResult[], plan: ProfilePlan, seed: string): AmplifyTask[] {
  const hot = new Set(results.filter((r) => r.verdict.outcome === 'vulnerable' || r.verdict.outcome === 'partial').map((r) => r.probe.category));
  const partial = results.filter((r) => r.verdict.outcome === 'partial');
  const resistedHot = results.filter((r) => r.verdict.outcome === 'resisted' && hot.has(r.probe.category));
  const cold = seededRng(seed, 'cold-sample')
    .shuffle(results.filter((r) => r.verdict.outcome === 'resisted' && !hot.has(r.probe.category)))
    .slice(0, plan.coldSample);
  const vulnerable = results.filter((r) => r.verdict.outcome === 'vulnerable');
  const tasks: AmplifyTask[] = [];
  for (const r of [...partial, ...resistedHot, ...cold, ...vulnerable]) {
    for (const chain of chainsFor(r.probe, plan, seed)) tasks.push({ probe: r.probe, chain });
  }
  return tasks.slice(0, plan.amplifyBudget);
}
