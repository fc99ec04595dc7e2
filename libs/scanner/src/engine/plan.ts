import { ANSWER_FORMS, Converter, INPUT_CONVERTERS, crescendoShort, layered } from '../converters';
import { seededRng } from '../converters/random';
import { strongest } from '../detectors/detector';
import { PROBES } from '../probes/catalogue';
import { customProbe } from '../probes/custom';
import { Probe, discloses } from '../probes/probe';
import { ProbeResult, Tactic, requestsFor } from './escalation';
import type { Profile, ProbeSelection, ToolDefinition } from '@gauntlet/domain';
import { toolsFit } from '../agents/runtime';
import { CallbackSetup, canPlant } from '../callbacks/planting';
import { probesFor } from '../probes/catalogue';
import { ProfilePlan } from './types';

export interface AmplifyTask {
  probe: Probe;
  chain: Converter[];
  /** requests it sends */
  cost: number;
}

/**
 * The probes a scan runs: the profile's, or with a selection those of the listed categories
 * (among the profile's) and the listed probes (from the whole catalogue: naming one asks for it);
 * custom probes in either case.
 */
export function selectProbes(profileProbes: readonly Probe[], selection?: ProbeSelection): Probe[] {
  // the user's own probes run beside whatever the catalogue contributes
  const custom = (selection?.custom ?? []).map(customProbe);
  if (!selection || (!selection.categories?.length && !selection.probes?.length)) return [...profileProbes, ...custom];
  const categories = new Set(selection.categories ?? []);
  const ids = new Set(selection.probes ?? []);
  const fromProfile = profileProbes.filter((p) => categories.has(p.category));
  const named = PROBES.filter((p) => ids.has(p.id) && !fromProfile.includes(p));
  return [...fromProfile, ...named, ...custom];
}

/**
 * The probes one scan runs, categories interleaved: the profile's (or the selection's), less those
 * it cannot run. A probe proven only by a request to its planted address runs only where a
 * listener hears it; one that needs tools only where the target is offered tools that fit it
 * ('any': tools not listed yet, which may fit every agent probe).
 */
export function probesOfScan(profile: Profile, selection: ProbeSelection | undefined, callbacks: Pick<CallbackSetup, 'domain'> | null, tools: readonly ToolDefinition[] | 'any'): Probe[] {
  const fits = (p: Probe) => !p.agent || tools === 'any' || toolsFit(p.agent.needs, p.agent.poison, tools);
  return interleaveByCategory(selectProbes(probesFor(profile), selection).filter((p) => canPlant(p, callbacks) && fits(p)));
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

/** The converters that can vary a probe: answer forms only where the probe asks for a disclosure. */
const variationsFor = (probe: Probe): readonly Converter[] => [...INPUT_CONVERTERS, crescendoShort, ...(discloses(probe) ? ANSWER_FORMS : [])];

/** Seeded converter chains for one probe, each in layer order (the answer form encoded with the request, arcs outermost). */
export function chainsFor(probe: Probe, plan: ProfilePlan, seed: string): Converter[][] {
  const shuffled = seededRng(seed, `chains:${probe.id}`).shuffle(variationsFor(probe));
  const chains: Converter[][] = [];
  for (let i = 0; i < plan.chainsPerProbe && i < shuffled.length; i++) {
    const stacked = plan.maxChainLength > 1 && i === plan.chainsPerProbe - 1 && i + 1 < shuffled.length && shuffled[i].layer !== shuffled[i + 1].layer;
    chains.push(layered(stacked ? [shuffled[i], shuffled[i + 1]] : [shuffled[i]]));
  }
  return chains;
}

const chainId = (chain: readonly Converter[]) => chain.map((c) => c.id).join('+');

/**
 * Amplifying what worked, most promising first, cut to the profile's budget: half-successes
 * (can a converter finish the job?), then probes that resisted in categories where something
 * else succeeded, then (deep) a seeded sample of the rest, then full successes (which other
 * techniques also work: the finding's variants). The first two are tried with the tactics that
 * got through elsewhere in this scan before random ones. `tried` says which (probe, chain) pairs
 * were already sent, so nothing is sent twice. The budget is in requests: an arc costs its turns.
 */
export function planAmplification(
  results: readonly ProbeResult[],
  plan: ProfilePlan,
  seed: string,
  winning: readonly Tactic[] = [],
  tried: (probe: Probe, chainId: string) => boolean = () => false,
): AmplifyTask[] {
  // the best a probe did, over the probe phase and any escalation
  const best = new Map<string, ProbeResult>();
  for (const r of results) {
    const prior = best.get(r.probe.id);
    best.set(r.probe.id, prior && strongest(prior.verdict, r.verdict) === prior.verdict ? prior : r);
  }
  const all = [...best.values()];
  const hot = new Set(all.filter((r) => r.verdict.outcome === 'vulnerable' || r.verdict.outcome === 'partial').map((r) => r.probe.category));
  const partial = all.filter((r) => r.verdict.outcome === 'partial');
  const resistedHot = all.filter((r) => r.verdict.outcome === 'resisted' && hot.has(r.probe.category));
  const cold = seededRng(seed, 'cold-sample')
    .shuffle(all.filter((r) => r.verdict.outcome === 'resisted' && !hot.has(r.probe.category)))
    .slice(0, plan.coldSample);
  const vulnerable = all.filter((r) => r.verdict.outcome === 'vulnerable');

  const tasks: AmplifyTask[] = [];
  const plan1 = (probe: Probe, candidates: Converter[][]) => {
    const seen = new Set<string>();
    for (const chain of candidates) {
      const id = chainId(chain);
      if (seen.has(id) || tried(probe, id) || chain.some((c) => c.layer === 'answer' && !discloses(probe))) continue;
      seen.add(id);
      tasks.push({ probe, chain, cost: requestsFor(probe, chain, seed) });
      if (seen.size >= plan.chainsPerProbe) break;
    }
  };
  const proven = winning.map((t) => t.chain);
  for (const r of [...partial, ...resistedHot]) plan1(r.probe, [...proven, ...chainsFor(r.probe, plan, seed)]);
  for (const r of [...cold, ...vulnerable]) plan1(r.probe, chainsFor(r.probe, plan, seed));
  let spent = 0;
  return tasks.filter((t) => spent + t.cost <= plan.amplifyBudget && (spent += t.cost) > 0);
}
