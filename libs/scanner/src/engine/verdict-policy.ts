import type { Turn } from '@gauntlet/domain';
import { Detector, JudgeContext, Verdict, strongest } from '../detectors/detector';
import { readRefusal } from '../detectors/refusal';
import { detectorByName, PRIMARY_DETECTOR } from '../detectors/registry';
import { Probe } from '../probes/probe';

export type JudgeAttempt = (probe: Probe, transcript: Turn[], context: JudgeContext) => Promise<Verdict>;

/**
 * How an attempt is judged: by the rules (the registry's primary detector) always; by a second
 * opinion (the LLM judge, when one is configured) only where the rules are unsure, that is the
 * answer is not proven vulnerable and is either half-way or not a plain refusal. The stronger of
 * the two verdicts stands; a second opinion that fails is left out.
 */
export function verdictPolicy(secondOpinion?: Detector): JudgeAttempt {
  const primary = detectorByName(PRIMARY_DETECTOR)!;
  return async (probe, transcript, context) => {
    const first = primary.judge(probe, transcript, context);
    // the rules answer at once: no extra turn of the event loop for them
    let verdict = first instanceof Promise ? await first : first;
    if (!secondOpinion || verdict.outcome === 'vulnerable') return verdict;
    const answer = transcript.filter((t) => t.role === 'assistant').map((t) => t.content).join('\n');
    if (verdict.outcome === 'partial' || !readRefusal(answer).refused) {
      const second = await secondOpinion.judge(probe, transcript, context);
      if (second.outcome !== 'error') verdict = strongest(verdict, second);
    }
    return verdict;
  };
}
