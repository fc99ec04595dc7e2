import type { ScanDoc } from '@gauntlet/read-models';
import { isTerminal } from '@gauntlet/domain';

/**
 * 200 and 422 carry the contract's CI body (422 is a verdict, not an error: "the same body and
 * passed false"); 424 is a problem (RFC 9457), whose `status` is the HTTP status, so the scan's
 * status travels as `scan_status`.
 */
export type GateAnswer =
  | { status: 202; body: { scan_id: string; status: string } }
  | { status: 200 | 422; body: Record<string, unknown> }
  | { status: 424; problem: { slug: string; title: string; detail: string; extensions: Record<string, unknown> } };

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
      problem: {
        slug: 'scan-not-scored', title: 'The scan did not finish', detail: `The scan ended ${scan.status}${scan.reason ? `: ${scan.reason}` : ''}.`,
        extensions: { scan_id: scan._id, scan_status: scan.status, reason: scan.reason, fail_threshold: threshold, passed: false, report_url },
      },
    };
  }
  const passed = scan.score.overall_score >= threshold;
  const body = {
    scan_id: scan._id, status: scan.status, security_score: scan.score.overall_score, security_grade: scan.score.grade,
    fail_threshold: threshold, passed, report_url,
  };
  return { status: passed ? 200 : 422, body };
}
