import { clock, plainLineKey, progressLine, remaining } from './progress';
import { table } from './table';

const p = { status: 'running', phase: 'probe', progress: 40, requests: { recon: 2, probe: 58 }, findings_so_far: 3, severity_counts: { critical: 2, high: 0, medium: 0, low: 1 } };
const none = { critical: 0, high: 0, medium: 0, low: 0 };

describe('the progress line', () => {
  it('shows phase, percent, requests, findings by severity, elapsed and remaining time', () => {
    expect(progressLine(p, 40_000)).toBe('probe     40%  requests 60  findings 3 (2 critical, 1 low)  0:40 elapsed, ~1:00 left');
  });

  it("takes the scanner's own estimate (its model of the target's throughput) when the service gives one", () => {
    expect(progressLine({ ...p, seconds_left: 95 }, 40_000)).toBe('probe     40%  requests 60  findings 3 (2 critical, 1 low)  0:40 elapsed, ~1:35 left');
    expect(remaining(1, 5_000, 300)).toBe(300_000);
    expect(remaining(100, 5_000, 3)).toBeNull();
  });

  it("says the plan's likely requests, and its time left when the plan's pace was known rather than assumed", () => {
    const plan = { requests: { min: 25, likely: 58, max: 166 }, seconds: { min: 5, likely: 12, max: 33 }, pace: { requests_per_second: 5, source: 'measured' as const } };
    expect(progressLine({ ...p, plan }, 4_000)).toBe('probe     40%  requests 60 of ~58  findings 3 (2 critical, 1 low)  0:04 elapsed, ~0:08 left');
    expect(remaining(1, 4_000, null, { ...plan, pace: { requests_per_second: 1, source: 'assumed' } })).toBeNull();
    expect(remaining(1, 4_000, 30, plan)).toBe(30_000);
  });

  it('leaves the remaining time out until the pace is known', () => {
    expect(remaining(1, 5_000)).toBeNull();
    expect(progressLine({ ...p, progress: 1, findings_so_far: 0, severity_counts: none }, 5_000)).toBe('probe      1%  requests 60  findings 0  0:05 elapsed');
  });

  it('counts the findings live while the scan runs, as the service does, before their severities are written', () => {
    expect(progressLine({ ...p, findings_so_far: 2, severity_counts: none }, 40_000)).toBe('probe     40%  requests 60  findings 2  0:40 elapsed, ~1:00 left');
  });

  it('formats hours', () => {
    expect(clock(3_725_000)).toBe('1:02:05');
  });

  it('gives a plain line per phase and per tenth, not per poll', () => {
    expect(plainLineKey({ ...p, progress: 41 })).toBe(plainLineKey(p));
    expect(plainLineKey({ ...p, progress: 50 })).not.toBe(plainLineKey(p));
    expect(plainLineKey({ ...p, phase: 'amplify' })).not.toBe(plainLineKey(p));
  });
});

describe('tables', () => {
  it('pads columns to their widest cell', () => {
    expect(table(['severity', 'title'], [['critical', 'System prompt leaked'], ['low', 'x']])).toEqual([
      'severity  title',
      '--------  --------------------',
      'critical  System prompt leaked',
      'low       x',
    ]);
  });
});
