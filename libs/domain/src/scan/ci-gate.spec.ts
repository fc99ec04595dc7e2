import { ciGateVerdict, CiGateFacts } from './ci-gate';

const ended = (over: Partial<CiGateFacts> = {}): CiGateFacts => ({ status: 'completed', score: { overall_score: 60 }, score_after_triage: null, new_open: [], ...over });

describe('CI gate verdict', () => {
  it('has none while the scan is pending or running', () => {
    expect(ciGateVerdict(ended({ status: 'pending', score: null }))).toBe('running');
    expect(ciGateVerdict(ended({ status: 'running', score: null }))).toBe('running');
  });

  it('never passes a scan that ended without a score', () => {
    expect(ciGateVerdict(ended({ status: 'failed', score: null }), { fail_on: 'new', allow_partial: true }, 0)).toBe('not_scored');
    expect(ciGateVerdict(ended({ status: 'cancelled', score: null }))).toBe('not_scored');
  });

  it('passes at or above the threshold and fails below it', () => {
    expect(ciGateVerdict(ended({ score: { overall_score: 70 } }), undefined, 70)).toBe('passed');
    expect(ciGateVerdict(ended({ score: { overall_score: 69 } }), undefined, 70)).toBe('failed');
    expect(ciGateVerdict(ended({ score: { overall_score: 0 } }))).toBe('passed'); // no threshold asked
  });

  it('gates on the score after triage when someone set findings aside', () => {
    expect(ciGateVerdict(ended({ score: { overall_score: 55 }, score_after_triage: { overall_score: 91 } }), undefined, 70)).toBe('passed');
    expect(ciGateVerdict(ended({ score: { overall_score: 91 }, score_after_triage: { overall_score: 55 } }), undefined, 70)).toBe('failed');
  });

  it('a partial scan passes only when the request allows partial results, and then is gated like any other', () => {
    const partial = ended({ status: 'completed_partial', score: { overall_score: 90 } });
    expect(ciGateVerdict(partial, { fail_on: 'score', allow_partial: false }, 70)).toBe('partial_refused');
    expect(ciGateVerdict(partial, { fail_on: 'score', allow_partial: true }, 70)).toBe('passed');
    expect(ciGateVerdict(partial, { fail_on: 'score', allow_partial: true }, 95)).toBe('failed');
  });

  it('with fail_on "new" fails only on findings new since the previous scan, whatever the score', () => {
    const low = ended({ score: { overall_score: 20 } });
    expect(ciGateVerdict(low, { fail_on: 'new', allow_partial: false }, 70)).toBe('passed');
    expect(ciGateVerdict({ ...low, new_open: ['v9'] }, { fail_on: 'new', allow_partial: false }, 0)).toBe('failed');
  });
});
