import { leaseExpired, leaseTimings, SCAN_END_REASONS, scanEnding, ScanRunOutcome } from './scan-termination';
import { ScanScore } from './vulnerability';

const now = '2026-11-21T10:00:00.000Z';
const score: ScanScore = { overall_score: 70, grade: 'C-', category_scores: {}, critical_count: 0, high_count: 2, medium_count: 0, low_count: 0, scoring_version: 'test' };
/** given what the run recorded, when it ends with `outcome`, then this command ends the scan */
const given = (attempts: number) => ({ when: (outcome: ScanRunOutcome) => scanEnding(outcome, { score, attempts, now }) });

describe('scan termination', () => {
  it('a completed run completes the scan with its score', () => {
    expect(given(80).when({ kind: 'completed' })).toEqual({ type: 'CompleteScan', score, now });
  });

  it('a target that stopped answering after probing began ends the scan partially, scored, with the reason', () => {
    expect(given(40).when({ kind: 'completed_partial', reason: 'target stopped answering' })).toEqual({ type: 'CompleteScanPartially', reason: 'target stopped answering', score, now });
  });

  it('a run stopped at its budget ends the scan partially, scored, saying what it did not finish', () => {
    const unfinished = { limit: 'max_requests' as const, phases: ['amplify'], categories: ['LLM06:2025'] };
    expect(given(40).when({ kind: 'stopped_at_budget', unfinished })).toEqual({ type: 'StopAtBudget', unfinished, score, now });
  });

  it('a target that never answered fails the scan with the reason, without a score', () => {
    expect(given(0).when({ kind: 'failed', reason: 'no answer' })).toEqual({ type: 'FailScan', reason: 'no answer', now });
  });

  it('a target deleted before the scan started fails it', () => {
    expect(given(0).when({ kind: 'target_deleted' })).toEqual({ type: 'FailScan', reason: SCAN_END_REASONS.targetDeleted, now });
  });

  it('a scanner stopped mid-scan keeps what was found: completed partially', () => {
    expect(given(5).when({ kind: 'stopped' })).toEqual({ type: 'CompleteScanPartially', reason: SCAN_END_REASONS.scannerStopped, score, now });
  });

  it('a crashed scanner keeps what was found, or fails the scan when nothing was attempted', () => {
    expect(given(3).when({ kind: 'crashed' })).toEqual({ type: 'CompleteScanPartially', reason: SCAN_END_REASONS.scannerCrashed, score, now });
    expect(given(0).when({ kind: 'crashed' })).toEqual({ type: 'FailScan', reason: SCAN_END_REASONS.scannerCrashed, now });
  });

  it('a scan whose scanner lost its lease is ended partially, with what was recorded', () => {
    expect(given(12).when({ kind: 'lease_expired' })).toEqual({ type: 'CompleteScanPartially', reason: SCAN_END_REASONS.leaseExpired, score, now });
  });
});

describe('lease expiry', () => {
  const t = Date.parse(now);
  const leaseMs = 15_000;

  it('given a lease still in its time, the scan is not abandoned; given one run out, it is', () => {
    expect(leaseExpired({ started_at: now }, { worker_id: 'w1', expires_at: t + 1 }, t, leaseMs)).toBe(false);
    expect(leaseExpired({ started_at: now }, { worker_id: 'w1', expires_at: t }, t, leaseMs)).toBe(true);
  });

  it('given no lease, the scan is abandoned only once it started over two lease periods ago', () => {
    expect(leaseExpired({ started_at: new Date(t - 2 * leaseMs).toISOString() }, null, t, leaseMs)).toBe(false);
    expect(leaseExpired({ started_at: new Date(t - 2 * leaseMs - 1).toISOString() }, null, t, leaseMs)).toBe(true);
    expect(leaseExpired({ started_at: null }, null, t, leaseMs)).toBe(false);
  });

  it('a lease is renewed three times and checked twice per period, never faster than 100 and 200 ms', () => {
    expect(leaseTimings(15_000)).toEqual({ renewEveryMs: 5_000, reapEveryMs: 7_500 });
    expect(leaseTimings(150)).toEqual({ renewEveryMs: 100, reapEveryMs: 200 });
  });
});
