import { ANSWER_FORMS, CRESCENDO_ARCS, Converter, INPUT_CONVERTERS, applyChain, converterById, layered } from '../converters';
import { Verdict } from '../detectors/detector';
import { Probe, discloses } from '../probes/probe';

/** A probe's result from the probe phase (or an earlier escalation round). */
export interface ProbeResult {
  probe: Probe;
  verdict: Verdict;
}

/** A way to re-send a probe: one converter, or a stack of them in layer order. */
export interface Tactic {
  /** converter ids joined with "+", e.g. "crescendo-3+base64" */
  id: string;
  chain: Converter[];
}

export interface EscalationAttempt {
  probe: Probe;
  tactic: Tactic;
  /** requests it sends (user turns) */
  cost: number;
}

export interface EscalationOptions {
  /** requests the whole escalation may send */
  budget: number;
  seed: string;
  /**
   * singles tried in a category before stacks of tactics become candidates there (Infinity: never).
   * A target with two guardrails (an input filter and a turn gate) yields only to a stack.
   */
  stackAfter: number;
  /** lead probes per category that tactics rotate over */
  leadsPerCategory: number;
  /** the target refused even the harmless first message: a gate on conversation depth is likely */
  reconRefused: boolean;
}

/**
 * Which single tactics are explored first, in this order (rotated per category so one round
 * covers many families: input encodings, conversation arcs, answer forms, obfuscations, framings).
 */
const EXPLORATION_ORDER = [
  'base64', 'crescendo-3', 'answer-base64', 'leetspeak', 'answer-reversed', 'hex', 'role-play', 'answer-spelled', 'rot13', 'split-turns',
  'crescendo-5', 'reverse', 'translation', 'answer-hex', 'homoglyph', 'authority', 'split-variables', 'answer-acrostic', 'zero-width',
  'answer-per-line', 'crescendo-6', 'code-block', 'json-envelope', 'answer-code-block', 'answer-translated',
];
/** the single tactics escalation explores, in its order */
export const SINGLES: readonly Converter[] = EXPLORATION_ORDER.map((id) => converterById(id)!);
const DEFAULT_BEST: Record<Converter['layer'], string> = { conversation: 'crescendo-3', encode: 'base64', answer: 'answer-base64', frame: 'role-play' };

/** Requests (user turns) a probe sends through a chain: arcs and splits add turns. */
export function requestsFor(probe: Probe, chain: readonly Converter[], seed: string): number {
  return chain.length ? applyChain(chain, probe.turns, seed, 'cost', { category: probe.category }).length : probe.turns.length;
}

const applicable = (tactic: Tactic, probe: Probe) => discloses(probe) || tactic.chain.every((c) => c.layer !== 'answer');
const tacticOf = (chain: Converter[]): Tactic => {
  const ordered = layered(chain);
  return { id: ordered.map((c) => c.id).join('+'), chain: ordered };
};

interface CategoryState {
  category: string;
  leads: Probe[];
  /** "tactic|probe" pairs already sent */
  sent: Set<string>;
  /** single tactics tried here */
  singles: Set<string>;
  attempts: number;
  found: boolean;
}

/**
 * Escalation on resistance, as an attacker works: every category that resisted in plain text is
 * attacked again through other tactics, one attempt per category at a time (the next picked as
 * soon as the last is judged), and what worked anywhere is tried everywhere next. Exploration first spreads over families
 * (the least-tried tactic goes next), so a round learns something about every kind of guardrail;
 * a tactic that got through (or half through) then leads in every category still resisting.
 * After enough singles fail in a category, stacks of the most promising tactic of each layer
 * follow (a turn gate and an input filter together yield only to both at once). Everything is
 * bounded by a request budget.
 *
 * Pure and deterministic for its inputs and the order verdicts are recorded in: the engine sends
 * each attempt and records its verdict.
 */
export class Escalation {
  private readonly categories: CategoryState[];
  private readonly tries = new Map<string, number>();
  /** successes per tactic: 1 for a full success, 0.5 for a partial one */
  private readonly wins = new Map<string, number>();
  private readonly costs = new Map<string, number>();
  /** attempts sent and not yet recorded, per category */
  private readonly underWay = new Map<string, number>();
  private readonly order: string[];
  private spentRequests = 0;

  constructor(results: readonly ProbeResult[], private readonly options: EscalationOptions) {
    const byCategory = new Map<string, ProbeResult[]>();
    for (const r of results) byCategory.set(r.probe.category, [...(byCategory.get(r.probe.category) ?? []), r]);
    this.categories = [...byCategory.entries()]
      .filter(([, rs]) => !rs.some((r) => r.verdict.outcome === 'vulnerable'))
      .map(([category, rs]) => ({
        category,
        // what half-worked leads; then the catalogue's order
        leads: [...rs.filter((r) => r.verdict.outcome === 'partial'), ...rs.filter((r) => r.verdict.outcome !== 'partial')].map((r) => r.probe).slice(0, options.leadsPerCategory),
        sent: new Set<string>(),
        singles: new Set<string>(),
        attempts: 0,
        found: false,
      }));
    const arcsFirst = options.reconRefused ? CRESCENDO_ARCS.map((c) => c.id) : [];
    this.order = [...arcsFirst, ...EXPLORATION_ORDER.filter((id) => !arcsFirst.includes(id))];
  }

  get spent(): number {
    return this.spentRequests;
  }

  /** categories still resisting */
  get resisting(): string[] {
    return this.categories.filter((c) => !c.found).map((c) => c.category);
  }

  /** the lead probe of each category still resisting: what an adaptive attacker takes on next */
  get leadsStillResisting(): Probe[] {
    return this.categories.filter((c) => !c.found && c.leads.length).map((c) => c.leads[0]);
  }

  /** tactics that got through, most successful first */
  get winning(): Tactic[] {
    return [...this.wins.entries()].filter(([, w]) => w >= 1).sort((a, b) => b[1] - a[1]).map(([id]) => tacticOf(id.split('+').map((c) => converterById(c)!)));
  }

  /**
   * The next attempt to send: for the resisting category with the fewest attempts under way (then
   * the fewest sent, then the catalogue's order), within the budget; null when none can go now
   * (asked again once an attempt under way is recorded). At most `perCategory` attempts of one
   * category are under way at once: with one, asking until null after every attempt was recorded
   * gives a round of one attempt per category, and a category whose attempt was judged goes on at
   * once instead of waiting for the others' (a scan keeps the target's slots busy). More than one
   * keeps more conversations going than there are resisting categories, learning a little later.
   */
  next(perCategory = 1): EscalationAttempt | null {
    const going = (c: CategoryState) => this.underWay.get(c.category) ?? 0;
    const open = this.categories
      .map((state, index) => ({ state, index }))
      .filter(({ state }) => !state.found && state.leads.length > 0 && going(state) < perCategory)
      .sort((a, b) => going(a.state) - going(b.state) || a.state.attempts - b.state.attempts || a.index - b.index);
    for (const { state, index } of open) {
      const next = this.pick(state, index);
      if (!next) continue;
      state.sent.add(`${next.tactic.id}|${next.probe.id}`);
      if (next.tactic.chain.length === 1) state.singles.add(next.tactic.id);
      state.attempts++;
      this.tries.set(next.tactic.id, (this.tries.get(next.tactic.id) ?? 0) + 1);
      this.spentRequests += next.cost;
      this.underWay.set(state.category, going(state) + 1);
      return next;
    }
    return null;
  }

  /** what an attempt got (null: no verdict, the target did not answer); its category may go on */
  record(attempt: EscalationAttempt, verdict: Verdict | null): void {
    const category = attempt.probe.category;
    this.underWay.set(category, Math.max(0, (this.underWay.get(category) ?? 0) - 1));
    if (!verdict || (verdict.outcome !== 'vulnerable' && verdict.outcome !== 'partial')) return;
    const gain = verdict.outcome === 'vulnerable' ? 1 : 0.5;
    this.wins.set(attempt.tactic.id, (this.wins.get(attempt.tactic.id) ?? 0) + gain);
    if (verdict.outcome === 'vulnerable') {
      const state = this.categories.find((c) => c.category === category);
      if (state) state.found = true;
    }
  }

  private pick(state: CategoryState, index: number): EscalationAttempt | null {
    const remaining = this.options.budget - this.spentRequests;
    for (const tactic of this.candidates(state, index)) {
      const won = (this.wins.get(tactic.id) ?? 0) > 0;
      const used = state.leads.filter((p) => state.sent.has(`${tactic.id}|${p.id}`)).length;
      // a tactic gets one probe per category, or two once it has worked somewhere
      if (used >= (won ? 2 : 1)) continue;
      for (let k = 0; k < state.leads.length; k++) {
        const probe = state.leads[(state.attempts + k) % state.leads.length];
        if (state.sent.has(`${tactic.id}|${probe.id}`) || !applicable(tactic, probe)) continue;
        const cost = this.cost(tactic, probe);
        if (cost <= remaining) return { probe, tactic, cost };
      }
    }
    return null;
  }

  /** this category's tactics, best first: what worked, then the least tried (in a per-category rotation of the exploration order), then stacks */
  private candidates(state: CategoryState, index: number): Tactic[] {
    const rotation = (id: string) => (this.order.indexOf(id) - (index % SINGLES.length) + this.order.length) % this.order.length;
    const singles = SINGLES.map((c) => tacticOf([c]));
    singles.sort(
      (a, b) =>
        (this.wins.get(b.id) ?? 0) - (this.wins.get(a.id) ?? 0) ||
        (this.tries.get(a.id) ?? 0) - (this.tries.get(b.id) ?? 0) ||
        rotation(a.id) - rotation(b.id),
    );
    if (state.singles.size < this.options.stackAfter) return singles;
    return [...this.stacks(state), ...singles];
  }

  /** the most promising tactic of each layer, stacked: best by successes anywhere, else the layer's default */
  private stacks(state: CategoryState): Tactic[] {
    const best = (layer: Converter['layer']) => {
      const scored = [...this.wins.entries()].filter(([id]) => !id.includes('+') && converterById(id)?.layer === layer).sort((a, b) => b[1] - a[1]);
      return converterById(scored[0]?.[0] ?? DEFAULT_BEST[layer])!;
    };
    const [conversation, encode, answer] = [best('conversation'), best('encode'), best('answer')];
    const stacks = [[conversation, encode], [conversation, answer], [encode, answer], [conversation, encode, answer]].map(tacticOf);
    return stacks.filter((t) => state.leads.some((p) => applicable(t, p)));
  }

  private cost(tactic: Tactic, probe: Probe): number {
    const key = `${tactic.id}|${probe.id}`;
    let cost = this.costs.get(key);
    if (cost === undefined) this.costs.set(key, (cost = requestsFor(probe, tactic.chain, this.options.seed)));
    return cost;
  }
}
