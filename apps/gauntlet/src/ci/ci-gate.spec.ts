import type { ScanDoc } from '@gauntlet/read-models';
import type { NamedScanDoc } from '../scans/scan-view';
import { gate, GateFacts } from './ci-gate';

const scan = (over: Partial<NamedScanDoc>): NamedScanDoc => ({ _id: 's1', status: 'completed', fail_threshold: 70, score: null, reason: null, ...over }) as NamedScanDoc;
const score = (n: number) => ({ overall_score: n, grade: n >= 70 ? 'C-' : 'D' }) as ScanDoc['score'];
const facts = (over: Partial<GateFacts> = {}): GateFacts => ({ after_triage: { overall_score: 60, grade: 'D-' }, base_scan_id: 'b1', new_open: [], ...over });

describe('CI gate', () => {
  it('answers 202 while the scan is pending or running', () => {
    expect(gate(scan({ status: 'pending' }), 'http://x', null).status).toBe(202);
    expect(gate(scan({ status: 'running' }), 'http://x', null)).toEqual({ status: 202, body: { scan_id: 's1', status: 'running' } });
  });

  it('passes at or above the threshold, fails below it', () => {
    expect(gate(scan({ score: score(70) }), 'http://x', facts({ after_triage: { overall_score: 70, grade: 'C-' } }))).toMatchObject({
      status: 200, body: { passed: true, security_score: 70, security_score_after_triage: 70, report_url: 'http://x/api/scans/s1/report' },
    });
    expect(gate(scan({ score: score(69) }), 'http://x', facts({ after_triage: { overall_score: 69, grade: 'D+' } }))).toMatchObject({ status: 422, body: { passed: false, security_score: 69, fail_threshold: 70 } });
  });

  it('gates on the score after triage and shows both side by side', () => {
    const answer = gate(scan({ score: score(55) }), 'http://x', facts({ after_triage: { overall_score: 91, grade: 'A-' } }));
    expect(answer).toMatchObject({ status: 200, body: { security_score: 55, security_grade: 'D', security_score_after_triage: 91, security_grade_after_triage: 'A-', passed: true } });
  });

  it('a partial scan never passes silently: 424 with its reason unless allow_partial', () => {
    const partial = scan({ status: 'completed_partial', score: score(90), reason: 'the scanner stopped renewing its lease' });
    expect(gate(partial, 'http://x', facts({ after_triage: { overall_score: 90, grade: 'A-' } }))).toMatchObject({
      status: 424, problem: { slug: 'scan-partial', extensions: { passed: false, scan_status: 'completed_partial', reason: 'the scanner stopped renewing its lease', security_score: 90 } },
    });
    expect(gate(partial, 'http://x', facts({ after_triage: { overall_score: 90, grade: 'A-' } }), { fail_on: 'score', allow_partial: true })).toMatchObject({ status: 200, body: { allow_partial: true } });
    expect(gate({ ...partial, coverage: 0.4 }, 'http://x', facts({ after_triage: { overall_score: 90, grade: 'A-' } }))).toMatchObject({
      status: 424, problem: { extensions: { partial: true, coverage: 0.4, security_grade_label: 'C- (partial: 40% of the plan ran)' } },
    });
    expect(gate({ ...partial, gate: { fail_on: 'score', allow_partial: true } }, 'http://x', facts({ after_triage: { overall_score: 90, grade: 'A-' } })).status).toBe(200);
  });

  it('a partial scan gated on what it found never shows its grade without the mark', () => {
    const partial = scan({ status: 'completed_partial', score: score(80), reason: 'the target stopped answering', coverage: 0.21 });
    const allowed = gate(partial, 'http://x', facts({ after_triage: { overall_score: 85, grade: 'B' } }), { fail_on: 'score', allow_partial: true });
    expect(allowed).toMatchObject({
      status: 200,
      body: {
        status: 'completed_partial', partial: true, coverage: 0.21, security_grade: 'C-', security_grade_label: 'C- (partial: 21% of the plan ran)',
        security_grade_after_triage: 'B', security_grade_after_triage_label: 'B (partial: 21% of the plan ran)',
      },
    });
    // a scan that ran its whole plan: the label is the grade, coverage 1
    expect(gate(scan({ score: score(80) }), 'http://x', facts({ after_triage: { overall_score: 80, grade: 'C-' } }))).toMatchObject({
      status: 200, body: { partial: false, coverage: 1, security_grade_label: 'C-', security_grade_after_triage_label: 'C-' },
    });
  });

  it('with fail_on new it fails only on findings new since the previous scan', () => {
    const low = scan({ score: score(20), gate: { fail_on: 'new', allow_partial: false } });
    expect(gate(low, 'http://x', facts({ new_open: [] }))).toMatchObject({ status: 200, body: { passed: true, fail_on: 'new', new_findings: 0, base_scan_id: 'b1' } });
    expect(gate(low, 'http://x', facts({ new_open: ['v9'] }))).toMatchObject({ status: 422, body: { passed: false, new_findings: 1, new_finding_ids: ['v9'] } });
    expect(gate(low, 'http://x', facts({ new_open: ['v9'] }), { fail_on: 'score', allow_partial: false }).status).toBe(422);
  });

  it('answers 424 for a scan that ended without a score', () => {
    expect(gate(scan({ status: 'failed', reason: 'target never answered' }), 'http://x', null)).toMatchObject({
      status: 424,
      problem: { extensions: { passed: false, scan_status: 'failed', reason: 'target never answered' } },
    });
    expect(gate(scan({ status: 'cancelled' }), 'http://x', null).status).toBe(424);
    // who cancelled it, as people read it, with the id beside
    const cancelled = scan({ status: 'cancelled', reason: 'cancelled by API key ci-pipeline', cancelled_by: 'apikey:k1', cancelled_by_name: 'API key ci-pipeline' });
    expect(gate(cancelled, 'http://x', null)).toMatchObject({
      status: 424,
      problem: { detail: 'The scan ended cancelled: cancelled by API key ci-pipeline.', extensions: { reason: 'cancelled by API key ci-pipeline', cancelled_by: 'apikey:k1', cancelled_by_name: 'API key ci-pipeline' } },
    });
  });
});
