import { CiGatePolicy, isTerminal, ScanStatus } from './scan';

/** A request that says nothing: gate on the score, and a partial scan does not pass. */
export const DEFAULT_GATE: CiGatePolicy = { fail_on: 'score', allow_partial: false };

/** What the gate decides on: the scan as it ended, triage and the diff as of now. */
export interface CiGateFacts {
  status: ScanStatus;
  /** the recorded score; null when the scan produced none (failed, cancelled) */
  score: { overall_score: number } | null;
  /** the score without the findings triaged away; null when nothing is known beyond the recorded one */
  score_after_triage: { overall_score: number } | null;
  /** findings new since the previous finished scan of the target that triage has not set aside */
  new_open: readonly string[];
}

export type CiGateVerdict = 'running' | 'not_scored' | 'partial_refused' | 'passed' | 'failed';

/**
 * The CI gate. A scan still running has no verdict yet; one that produced no score, or only a
 * partial one the request did not allow, never passes (a dead worker must not let a pipeline
 * through). Otherwise it passes at or above the threshold on the score after triage (a false
 * positive someone set aside must not block every pipeline), or, with fail_on "new", when no
 * finding is new since the previous scan.
 */
export function ciGateVerdict(facts: CiGateFacts, policy: CiGatePolicy = DEFAULT_GATE, threshold = 0): CiGateVerdict {
  if (!isTerminal(facts.status)) return 'running';
  if (!facts.score) return 'not_scored';
  if (facts.status === 'completed_partial' && !policy.allow_partial) return 'partial_refused';
  const passed = policy.fail_on === 'new' ? facts.new_open.length === 0 : (facts.score_after_triage ?? facts.score).overall_score >= threshold;
  return passed ? 'passed' : 'failed';
}
