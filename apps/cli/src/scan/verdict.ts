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

/**
 * The gate's line, each condition with its figures: `FAILED: score 54 is below 70`,
 * `PASSED: score 84 is at least 70; nothing new since scan <id>`. Null when nothing was asked.
 */
export function gateLine(verdict: ScanVerdict, facts: ScanGateFacts & { base_scan_id?: string | null }, gate: ScanGate): string | null {
  const checks: { ok: boolean; text: string }[] = [];
  const score = (facts.score_after_triage ?? facts.score)?.overall_score;
  if (gate.failUnder !== null && score !== undefined) {
    const triaged = facts.score_after_triage && facts.score && facts.score_after_triage.overall_score !== facts.score.overall_score ? ' after triage' : '';
    checks.push(score >= gate.failUnder ? { ok: true, text: `score${triaged} ${score} is at least ${gate.failUnder}` } : { ok: false, text: `score${triaged} ${score} is below ${gate.failUnder}` });
  }
  if (gate.failOn === 'new') {
    const since = facts.base_scan_id ? `since scan ${facts.base_scan_id}` : 'since nothing (first scan)';
    checks.push(facts.new_open.length ? { ok: false, text: `${facts.new_open.length} new finding(s) ${since}` } : { ok: true, text: `nothing new ${since}` });
  }
  if (gate.failOn === 'high') {
    const high = facts.open_severities.filter((s) => s === 'critical' || s === 'high').length;
    checks.push(high ? { ok: false, text: `${high} high or critical finding(s)` } : { ok: true, text: 'no high or critical finding' });
  }
  if (!checks.length) return null;
  if (verdict === 'passed') return `PASSED: ${checks.map((c) => c.text).join('; ')}`;
  const failing = checks.filter((c) => !c.ok);
  return `FAILED: ${(failing.length ? failing : checks).map((c) => c.text).join('; ')}`;
}
