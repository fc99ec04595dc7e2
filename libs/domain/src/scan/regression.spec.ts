import type { TriageDecision } from '../triage/triage';
import { scanRegressions } from './regression';

const fixed = (fingerprint: string, at: string): TriageDecision => ({ fingerprint, state: 'fixed', reason: 'patched', by: 'account:a1', at, expires_at: null, scan_id: 's0', vulnerability_id: 'v0' });
const facts = { fingerprints: ['fp-a', 'fp-b'], requested_at: '2026-11-21T10:00:00.000Z', decisions: [], score: 80, previous_score: 82, threshold: null };

describe('scan regressions', () => {
  it('given a weakness triaged fixed before the scan, when the scan finds it again, then it regressed', () => {
    expect(scanRegressions({ ...facts, decisions: [fixed('fp-b', '2026-11-20T10:00:00.000Z'), fixed('fp-z', '2026-11-20T10:00:00.000Z')] })).toEqual([
      { reason: 'found_again', fingerprints: ['fp-b'], score: 80, previous_score: 82 },
    ]);
  });

  it('given the fix was decided after the scan was requested, then the scan does not contradict it', () => {
    expect(scanRegressions({ ...facts, decisions: [fixed('fp-b', '2026-11-21T11:00:00.000Z')] })).toEqual([]);
  });

  it('given a threshold, a drop by more than it regresses and a drop by exactly it does not', () => {
    expect(scanRegressions({ ...facts, score: 70, previous_score: 81, threshold: 10 })).toEqual([{ reason: 'score_drop', fingerprints: [], score: 70, previous_score: 81 }]);
    expect(scanRegressions({ ...facts, score: 71, previous_score: 81, threshold: 10 })).toEqual([]);
    expect(scanRegressions({ ...facts, score: 10, previous_score: null, threshold: 10 })).toEqual([]);
    expect(scanRegressions({ ...facts, score: 10, previous_score: 90, threshold: null })).toEqual([]);
  });

  it('gives one regression per reason when both hold', () => {
    const both = scanRegressions({ ...facts, score: 40, previous_score: 90, threshold: 5, decisions: [fixed('fp-a', '2026-11-01T00:00:00.000Z')] });
    expect(both.map((r) => r.reason)).toEqual(['found_again', 'score_drop']);
  });
});
