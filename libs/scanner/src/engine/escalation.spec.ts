import { Verdict } from '../detectors/detector';
import { PROBES } from '../probes/catalogue';
import { discloses } from '../probes/probe';
import { Escalation, EscalationAttempt, EscalationOptions, ProbeResult } from './escalation';

const verdict = (outcome: Verdict['outcome']): Verdict => ({ detector: 'd', outcome, matched: null, confidence: 0.9 });
const resistedEverywhere: ProbeResult[] = PROBES.map((probe) => ({ probe, verdict: verdict('resisted') }));
const options = (over: Partial<EscalationOptions> = {}): EscalationOptions => ({ budget: 150, seed: 's', stackAfter: 8, leadsPerCategory: 3, reconRefused: false, ...over });
const families = (round: EscalationAttempt[]) => new Set(round.map((a) => a.tactic.chain[0].layer));

/** What can go at once, one attempt per category: a round, when every attempt before was recorded. */
function nextRound(escalation: Escalation): EscalationAttempt[] {
  const round: EscalationAttempt[] = [];
  for (let a = escalation.next(); a; a = escalation.next()) round.push(a);
  return round;
}

/** Runs every round to the end, answering each attempt with `answer`. */
function drive(escalation: Escalation, answer: (a: EscalationAttempt) => Verdict['outcome']) {
  const rounds: EscalationAttempt[][] = [];
  for (let round = nextRound(escalation); round.length; round = nextRound(escalation)) {
    rounds.push(round);
    for (const a of round) escalation.record(a, verdict(answer(a)));
  }
  return rounds;
}

describe('escalation on resistance', () => {
  it('given a target that resisted everything, the first round attacks every category once, over several families of tactics', () => {
    const round = nextRound(new Escalation(resistedEverywhere, options()));
    expect(new Set(round.map((a) => a.probe.category)).size).toBe(8);
    expect(round).toHaveLength(8);
    expect(new Set(round.map((a) => a.tactic.id)).size).toBe(8);
    // input encodings, multi-turn arcs and answer forms are all explored at once
    expect([...families(round)].sort()).toEqual(['answer', 'conversation', 'encode', 'frame']);
  });

  it('given categories that were already broken in plain text, only the others are escalated', () => {
    const results = resistedEverywhere.map((r) => (r.probe.category === 'LLM09:2025' || r.probe.category === 'LLM10:2025' ? { ...r, verdict: verdict('vulnerable') } : r));
    const round = nextRound(new Escalation(results, options()));
    expect(round.map((a) => a.probe.category)).not.toContain('LLM09:2025');
    expect(round).toHaveLength(6);
  });

  it('answer forms are only asked of probes that ask for a disclosure', () => {
    const rounds = drive(new Escalation(resistedEverywhere, options({ budget: 2_000 })), () => 'resisted');
    for (const a of rounds.flat()) if (a.tactic.chain.some((c) => c.layer === 'answer')) expect([a.probe.id, discloses(a.probe)]).toEqual([a.probe.id, true]);
  });

  it('when a tactic gets through in one category, the next round leads with it in every category still resisting', () => {
    const escalation = new Escalation(resistedEverywhere, options());
    const first = nextRound(escalation);
    const winner = first.find((a) => a.tactic.id === 'hex') ?? first[0];
    for (const a of first) escalation.record(a, verdict(a === winner ? 'vulnerable' : 'resisted'));
    const second = nextRound(escalation);
    expect(second.map((a) => a.probe.category)).not.toContain(winner.probe.category);
    expect(second.every((a) => a.tactic.id === winner.tactic.id)).toBe(true);
    expect(escalation.winning.map((t) => t.id)).toEqual([winner.tactic.id]);
  });

  it('a half success (partial) leads too, but its category keeps being attacked', () => {
    const escalation = new Escalation(resistedEverywhere, options());
    const first = nextRound(escalation);
    for (const a of first) escalation.record(a, verdict(a === first[0] ? 'partial' : 'resisted'));
    const second = nextRound(escalation);
    expect(second.map((a) => a.probe.category)).toContain(first[0].probe.category);
    expect(second[1].tactic.id).toBe(first[0].tactic.id);
  });

  it('a target refusing even a greeting gets multi-turn arcs first', () => {
    const round = nextRound(new Escalation(resistedEverywhere, options({ reconRefused: true })));
    expect(round.slice(0, 3).map((a) => a.tactic.id).sort()).toEqual(['crescendo-3', 'crescendo-5', 'crescendo-6']);
  });

  it('stacks the most promising tactic of each layer once enough singles failed in a category', () => {
    const rounds = drive(new Escalation(resistedEverywhere, options({ budget: 2_000, stackAfter: 3 })), () => 'resisted');
    const stacks = rounds.flat().filter((a) => a.tactic.chain.length > 1);
    expect(stacks.length).toBeGreaterThan(0);
    expect(stacks.map((a) => a.tactic.id)).toContain('base64+crescendo-3');
    // layer order: answer form, then encoding, then the arc that wraps them
    expect(stacks.find((a) => a.tactic.chain.length === 3)?.tactic.id).toBe('answer-base64+base64+crescendo-3');
    const none = drive(new Escalation(resistedEverywhere, options({ budget: 2_000, stackAfter: Infinity })), () => 'resisted');
    expect(none.flat().every((a) => a.tactic.chain.length === 1)).toBe(true);
  });

  it('never spends more than its request budget, counting every turn an arc or a split adds', () => {
    for (const budget of [0, 7, 30, 150]) {
      const escalation = new Escalation(resistedEverywhere, options({ budget }));
      const spent = drive(escalation, () => 'resisted').flat().reduce((n, a) => n + a.cost, 0);
      expect(spent).toBe(escalation.spent);
      expect(spent).toBeLessThanOrEqual(budget);
    }
    const arc = drive(new Escalation(resistedEverywhere, options({ reconRefused: true })), () => 'resisted').flat().find((a) => a.tactic.id === 'crescendo-6');
    expect(arc?.cost).toBeGreaterThanOrEqual(6);
  });

  it('never sends the same probe through the same tactic twice, and stops once every category is found', () => {
    const escalation = new Escalation(resistedEverywhere, options({ budget: 5_000 }));
    const all = drive(escalation, () => 'resisted').flat();
    const keys = all.map((a) => `${a.tactic.id}|${a.probe.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const found = drive(new Escalation(resistedEverywhere, options()), () => 'vulnerable');
    expect(found).toHaveLength(1);
  });

  it('a category whose attempt was judged goes on at once, while the others are still under way', () => {
    const escalation = new Escalation(resistedEverywhere, options());
    const first = nextRound(escalation);
    expect(escalation.next()).toBeNull();
    escalation.record(first[2], verdict('resisted'));
    const next = escalation.next();
    expect(next?.probe.category).toBe(first[2].probe.category);
    expect(next?.tactic.id).not.toBe(first[2].tactic.id);
    expect(escalation.next()).toBeNull();
  });

  it('with room for more conversations than categories resisting, more than one attempt of a category goes at once, never the same twice', () => {
    const results = resistedEverywhere.map((r) => (r.probe.category === 'LLM01:2025' || r.probe.category === 'LLM07:2025' ? r : { ...r, verdict: verdict('vulnerable') }));
    const escalation = new Escalation(results, options());
    const going: EscalationAttempt[] = [];
    for (let a = escalation.next(3); a; a = escalation.next(3)) going.push(a);
    expect(going.map((a) => a.probe.category).sort()).toEqual(['LLM01:2025', 'LLM01:2025', 'LLM01:2025', 'LLM07:2025', 'LLM07:2025', 'LLM07:2025']);
    expect(new Set(going.map((a) => `${a.tactic.id}|${a.probe.id}`)).size).toBe(6);
  });

  it('is deterministic for its inputs', () => {
    const run = () => drive(new Escalation(resistedEverywhere, options()), (a) => (a.tactic.id === 'rot13' ? 'vulnerable' : 'resisted')).map((r) => r.map((a) => `${a.tactic.id}|${a.probe.id}`));
    expect(run()).toEqual(run());
  });
});
