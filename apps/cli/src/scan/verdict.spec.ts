import { gateLine, scanVerdict, ScanGate, ScanGateFacts } from './verdict';

const facts = (over: Partial<ScanGateFacts> = {}): ScanGateFacts => ({
  status: 'completed', score: { overall_score: 72 }, score_after_triage: null, new_open: [], open_severities: ['medium'], ...over,
});
const gate = (over: Partial<ScanGate> = {}): ScanGate => ({ failUnder: null, failOn: null, allowPartial: false, ...over });

describe('the gate of a local scan', () => {
  it('passes a scored scan when nothing is asked', () => {
    expect(scanVerdict(facts(), gate())).toBe('passed');
  });

  it('fails below --fail-under and passes at it, on the score after triage when there is one', () => {
    expect(scanVerdict(facts(), gate({ failUnder: 73 }))).toBe('failed');
    expect(scanVerdict(facts(), gate({ failUnder: 72 }))).toBe('passed');
    expect(scanVerdict(facts({ score_after_triage: { overall_score: 90 } }), gate({ failUnder: 80 }))).toBe('passed');
  });

  it('with --fail-on new fails only on new open findings', () => {
    expect(scanVerdict(facts({ new_open: ['v1'] }), gate({ failOn: 'new' }))).toBe('failed');
    expect(scanVerdict(facts(), gate({ failOn: 'new' }))).toBe('passed');
  });

  it('with --fail-on high fails on an open high or critical finding', () => {
    expect(scanVerdict(facts({ open_severities: ['low', 'high'] }), gate({ failOn: 'high' }))).toBe('failed');
    expect(scanVerdict(facts({ open_severities: ['critical'] }), gate({ failOn: 'high' }))).toBe('failed');
    expect(scanVerdict(facts({ open_severities: ['medium', 'low'] }), gate({ failOn: 'high' }))).toBe('passed');
  });

  it('never passes a scan without a score, nor a partial one unless allowed', () => {
    expect(scanVerdict(facts({ status: 'failed', score: null }), gate())).toBe('not_scored');
    expect(scanVerdict(facts({ status: 'completed_partial' }), gate())).toBe('partial_refused');
    expect(scanVerdict(facts({ status: 'completed_partial' }), gate({ allowPartial: true }))).toBe('passed');
    expect(scanVerdict(facts({ status: 'completed_partial' }), gate({ allowPartial: true, failUnder: 90 }))).toBe('failed');
  });
});

describe('the gate line', () => {
  it('says the score and the threshold', () => {
    expect(gateLine('failed', facts({ score: { overall_score: 54 } }), gate({ failUnder: 70 }))).toBe('FAILED: score 54 is below 70');
    expect(gateLine('passed', facts(), gate({ failUnder: 70 }))).toBe('PASSED: score 72 is at least 70');
    expect(gateLine('passed', facts({ score_after_triage: { overall_score: 90 } }), gate({ failUnder: 80 }))).toBe('PASSED: score after triage 90 is at least 80');
  });

  it('names only the conditions that failed, with their figures', () => {
    expect(gateLine('failed', { ...facts({ new_open: ['a', 'b'] }), base_scan_id: 's1' }, gate({ failUnder: 70, failOn: 'new' }))).toBe('FAILED: 2 new finding(s) since scan s1');
    expect(gateLine('failed', facts({ open_severities: ['high', 'critical', 'low'] }), gate({ failOn: 'high' }))).toBe('FAILED: 2 high or critical finding(s)');
    expect(gateLine('passed', facts(), gate({ failOn: 'new' }))).toBe('PASSED: nothing new since nothing (first scan)');
  });

  it('is absent when no gate was asked', () => {
    expect(gateLine('passed', facts(), gate())).toBeNull();
  });
});
