import type { ScanDoc } from '@gauntlet/read-models';
import { isTerminal } from '@gauntlet/domain';

export type GateAnswer =
  | { status: 202; body: { scan_id: string; status: string } }
  | { status: 200 | 422 | 424; body: Record<string, unknown>; problem?: { title: string; detail: string; slug: string } };

/**
 * The CI gate as a pure function of the scan's read model: 202 while it runs, 200 passed,
 * 422 below the threshold, 424 when the scan did not produce a score (failed or cancelled).
 */
export function gate(scan: ScanDoc, baseUrl: string, threshold = scan.fail_threshold ?? 0): GateAnswer {
  if (!isTerminal(scan.status)) return { status: 202, body: { scan_id: scan._id, status: scan.status } };
  const report_url = `${baseUrl}/api/scans/${scan._id}/report`;
  if (!scan.score) {
    return {
      status: 424,
      body: { scan_id: scan._id, status: scan.status, reason: scan.reason, fail_threshold: threshold, passed: false, report_url },
      problem: { slug: 'scan-not-scored', title: 'The scan did not finish', detail: `The scan ended ${scan.status}${scan.reason ? `: ${scan.reason}` : ''}.` },
    };
  }
  const passed = scan.score.overall_score >= threshold;
  const body = {
    scan_id: scan._id, status: scan.status, security_score: scan.score.overall_score, security_grade: scan.score.grade,
    fail_threshold: threshold, passed, report_url,
  };
  if (passed) return { status: 200, body };
  return {
    status: 422,
    body,
    problem: { slug: 'ci-gate-failed', title: 'Security score below the threshold', detail: `Security score ${scan.score.overall_score} (${scan.score.grade}) is below the fail_threshold ${threshold}.` },
  };
}
