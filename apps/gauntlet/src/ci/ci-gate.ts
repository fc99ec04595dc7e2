import { CiGatePolicy, ciGateVerdict, DEFAULT_GATE, gradeLabel } from '@gauntlet/domain';
import { NamedScanDoc, partiality } from '../scans/scan-view';

/**
 * 200 and 422 carry the contract's CI body (422 is a verdict, not an error: "the same body and
 * passed false"); 424 is a problem (RFC 9457), whose `status` is the HTTP status, so the scan's
 * status travels as `scan_status`.
 */
export type GateAnswer =
  | { status: 202; body: { scan_id: string; status: string } }
  | { status: 200 | 422; body: Record<string, unknown> }
  | { status: 424; problem: { slug: string; title: string; detail: string; extensions: Record<string, unknown> } };

/** What the gate knows about a finished scan besides its read model: triage and the diff, as of now. */
export interface GateFacts {
  /** the score without the findings triaged away (the recorded one when nothing is) */
  after_triage: { overall_score: number; grade: string };
  /** the previous finished scan of the target, null for the first */
  base_scan_id: string | null;
  /** findings new since the base that triage has not set aside */
  new_open: string[];
}

/**
 * The CI gate's verdict (libs/domain, ciGateVerdict) as HTTP: 202 while the scan runs, 424 when
 * it did not produce a score or only a partial one the request did not allow, else 200 or 422.
 */
export function gate(scan: NamedScanDoc, baseUrl: string, facts: GateFacts | null, policy: CiGatePolicy = scan.gate ?? DEFAULT_GATE, threshold = scan.fail_threshold ?? 0): GateAnswer {
  const newOpen = facts?.new_open ?? [];
  const verdict = ciGateVerdict({ status: scan.status, score: scan.score, score_after_triage: facts?.after_triage ?? null, new_open: newOpen }, policy, threshold);
  if (verdict === 'running') return { status: 202, body: { scan_id: scan._id, status: scan.status } };
  const report_url = `${baseUrl}/api/scans/${scan._id}/report`;
  if (verdict === 'not_scored' || !scan.score) {
    return {
      status: 424,
      problem: {
        slug: 'scan-not-scored', title: 'The scan did not finish', detail: `The scan ended ${scan.status}${scan.reason ? `: ${scan.reason}` : ''}.`,
        extensions: {
          scan_id: scan._id, scan_status: scan.status, reason: scan.reason, fail_threshold: threshold, passed: false, report_url,
          ...(scan.cancelled_by_name && { cancelled_by: scan.cancelled_by, cancelled_by_name: scan.cancelled_by_name }),
        },
      },
    };
  }
  // a partial scan's grade is never answered without its mark: partial, coverage and the labels
  const shown = partiality(scan);
  const label = (grade: string) => gradeLabel(grade, shown);
  if (verdict === 'partial_refused') {
    return {
      status: 424,
      problem: {
        slug: 'scan-partial', title: 'The scan ended with partial results',
        detail: `The scan ended completed_partial${scan.reason ? `: ${scan.reason}` : ''}. Its score covers only what ran, so it does not pass a gate unless the request says allow_partial: true.`,
        extensions: {
          scan_id: scan._id, scan_status: scan.status, reason: scan.reason, fail_threshold: threshold, passed: false, allow_partial: false,
          security_score: scan.score.overall_score, security_grade: scan.score.grade, security_grade_label: label(scan.score.grade), ...shown, report_url,
        },
      },
    };
  }
  const after = facts?.after_triage ?? scan.score;
  const passed = verdict === 'passed';
  const body = {
    scan_id: scan._id, status: scan.status, ...shown,
    security_score: scan.score.overall_score, security_grade: scan.score.grade, security_grade_label: label(scan.score.grade),
    security_score_after_triage: after.overall_score, security_grade_after_triage: after.grade, security_grade_after_triage_label: label(after.grade),
    fail_threshold: threshold, fail_on: policy.fail_on, allow_partial: policy.allow_partial,
    base_scan_id: facts?.base_scan_id ?? null, new_findings: newOpen.length, new_finding_ids: newOpen,
    passed, report_url,
  };
  return { status: passed ? 200 : 422, body };
}
