import type { ScanDoc } from '@gauntlet/read-models';
import { gate } from './ci-gate';

const scan = (over: Partial<ScanDoc>): ScanDoc => ({ _id: 's1', status: 'completed', fail_threshold: 70, score: null, reason: null, ...over }) as ScanDoc;
const score = (n: number) => ({ overall_score: n, grade: n >= 70 ? 'C-' : 'D' }) as ScanDoc['score'];

describe('CI gate', () => {
  it('answers 202 while the scan is pending or running', () => {
    expect(gate(scan({ status: 'pending' }), 'http://x').status).toBe(202);
    expect(gate(scan({ status: 'running' }), 'http://x')).toEqual({ status: 202, body: { scan_id: 's1', status: 'running' } });
  });

  it('passes at or above the threshold, fails below it', () => {
    expect(gate(scan({ score: score(70) }), 'http://x')).toMatchObject({ status: 200, body: { passed: true, security_score: 70, report_url: 'http://x/api/scans/s1/report' } });
    expect(gate(scan({ score: score(69) }), 'http://x')).toMatchObject({ status: 422, body: { passed: false, security_score: 69, fail_threshold: 70 } });
  });

  it('gates a partial scan on the score it recorded', () => {
    expect(gate(scan({ status: 'completed_partial', score: score(90) }), 'http://x').status).toBe(200);
  });

  it('answers 424 for a scan that ended without a score', () => {
    expect(gate(scan({ status: 'failed', reason: 'target never answered' }), 'http://x')).toMatchObject({
      status: 424,
      problem: { extensions: { passed: false, scan_status: 'failed', reason: 'target never answered' } },
    });
    expect(gate(scan({ status: 'cancelled' }), 'http://x').status).toBe(424);
  });
});
