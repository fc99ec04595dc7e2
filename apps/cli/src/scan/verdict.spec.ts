import { scanVerdict, ScanGate, ScanGateFacts } from './verdict';

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
