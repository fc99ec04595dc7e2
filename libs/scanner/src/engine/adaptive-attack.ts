import { AttackTry, Attacker } from '../attacker/attacker';
import { Probe } from '../probes/probe';
import { Attempts } from './attempts';
import { TargetHealth } from './target-health';

/**
 * PAIR-style: an attacker model rewrites a refused attack, round after round, learning from the
 * target's answers, until it gets through or its rounds run out. Each try is one request,
 * recorded like every attempt (converters ["attacker"]).
 */
export async function adaptiveAttack(
  probe: Probe,
  rounds: number,
  scan: { attacker: Attacker; attempts: Attempts; health: TargetHealth; stop: AbortSignal },
): Promise<void> {
  const { attacker, attempts, health } = scan;
  const rendered = attempts.rendered(probe);
  const goal = { category: `${probe.category} ${probe.category_name}`, objective: probe.description, request: rendered.turns.join('\n') };
  const tries: AttackTry[] = [];
  for (let round = 1; round <= rounds && !health.stopped; round++) {
    const prompt = await attacker.next(goal, tries, scan.stop).catch(() => null);
    if (!prompt || health.stopped) return;
    const result = await attempts.deliver(probe, 'amplify', { turns: [prompt], converters: ['attacker'], technique: 'adaptive-attacker', id: ['attacker', String(round)] }, 1);
    if (!result || result.verdict.outcome === 'vulnerable') return;
    tries.push({ prompt, answer: result.answer, outcome: result.verdict.outcome });
  }
}
