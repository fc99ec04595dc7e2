import { fleetStanding, FleetScan, nextScheduledRun, openBySeverity } from './fleet';

const scan = (id: string, status: FleetScan['status'], score: number | null): FleetScan => ({
  id, status, created_at: `2026-11-2${id}T00:00:00.000Z`, finished_at: null, score: score === null ? null : { overall_score: score, grade: 'x' },
});

describe('fleet standing', () => {
  it('compares the two newest scans that finished with a score, skipping failed ones', () => {
    expect(fleetStanding([scan('4', 'running', null), scan('3', 'failed', null), scan('2', 'completed', 70), scan('1', 'completed_partial', 85)])).toMatchObject({
      last: { id: '2' }, previous: { id: '1' }, change: -15, scanning: true,
    });
  });

  it('has no change for a first scan, and nothing at all before one', () => {
    expect(fleetStanding([scan('1', 'completed', 90)])).toMatchObject({ last: { id: '1' }, previous: null, change: null, scanning: false });
    expect(fleetStanding([])).toEqual({ last: null, previous: null, change: null, scanning: false });
  });

  it('counts only findings still open after triage', () => {
    expect(openBySeverity([{ severity: 'high' }, { severity: 'high', triage_state: 'open' }, { severity: 'critical', triage_state: 'fixed' }, { severity: 'low', triage_state: 'false_positive' }])).toEqual({
      critical: 0, high: 2, medium: 0, low: 0,
    });
  });

  it('the next run is the soonest of the schedules naming the target or one of its tags', () => {
    const schedules = [
      { target_id: 't1', tag: null, next_due_at: '2026-11-27T02:00:00.000Z' },
      { target_id: null, tag: 'prod', next_due_at: '2026-11-26T23:00:00.000Z' },
      { target_id: null, tag: 'other', next_due_at: '2026-11-26T01:00:00.000Z' },
      { target_id: 't1', tag: null, next_due_at: null },
    ];
    expect(nextScheduledRun({ id: 't1', tags: ['prod'] }, schedules)).toBe('2026-11-26T23:00:00.000Z');
    expect(nextScheduledRun({ id: 't2', tags: [] }, schedules)).toBeNull();
  });
});
