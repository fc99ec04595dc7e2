import { CiGatePolicy, ciGateVerdict, ScanStatus, Severity } from '@gauntlet/domain';

/** What a local scan is gated on: a score floor, and/or findings that are new or high. */
export interface ScanGate {
  failUnder: number | null;
  failOn: 'new' | 'high' | null;
  allowPartial: boolean;
}

export interface ScanGateFacts {
  status: ScanStatus;
  score: { overall_score: number } | null;
  score_after_triage: { overall_score: number } | null;
  /** findings new since the previous finished scan of the target that triage has not set aside */
  new_open: readonly string[];
  /** the severities of the findings triage has not set aside */
  open_severities: readonly Severity[];
}

export type ScanVerdict = 'not_scored' | 'partial_refused' | 'passed' | 'failed';

/** the service's own gate policy for the parts it knows (score, new findings, partial scans) */
export function servicePolicy(gate: ScanGate): CiGatePolicy | undefined {
  const fail_on = gate.failOn === 'new' ? 'new' : 'score';
  return fail_on === 'score' && !gate.allowPartial ? undefined : { fail_on, allow_partial: gate.allowPartial };
}

/**
 * The gate of `gauntlet scan`, on the CI gate's rule (ciGateVerdict): no score or a partial
 * scan not allowed never passes; the score after triage must reach --fail-under; with
 * --fail-on new nothing may be new since the target's previous scan; with --fail-on high no
 * open finding may be high or critical. Without a gate a scored scan passes.
 */
export function scanVerdict(facts: ScanGateFacts, gate: ScanGate): ScanVerdict {
  const onScore = ciGateVerdict(facts, { fail_on: 'score', allow_partial: gate.allowPartial }, gate.failUnder ?? 0);
  if (onScore === 'running') return 'not_scored';
  if (onScore !== 'passed') return onScore;
  if (gate.failOn === 'new' && ciGateVerdict(facts, { fail_on: 'new', allow_partial: gate.allowPartial }) !== 'passed') return 'failed';
  if (gate.failOn === 'high' && facts.open_severities.some((s) => s === 'critical' || s === 'high')) return 'failed';
  return 'passed';
}
