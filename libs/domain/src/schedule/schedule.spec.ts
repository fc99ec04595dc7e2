import { spec } from '@gauntlet/testing';
import { fold } from '../decider';
import { cronProblem, dueTimesBetween, nextDueAfter } from './cron';
import { DEPLOYS_REMEMBERED, scheduleDecider, scheduleDue, ScheduleEvent, unsettledScans } from './schedule';

const created: ScheduleEvent = {
  type: 'ScheduleCreated', schemaVersion: 1,
  data: { schedule_id: 's1', account_id: 'a1', target_id: 't1', tag: null, trigger: 'cron', cron: '0 3 * * *', timezone: 'Europe/Paris', profile: 'standard', catch_up: 'skip', paused: false, created_at: '2026-11-20T12:00:00.000Z' },
};
const create = { type: 'CreateSchedule' as const, schedule_id: 's1', account_id: 'a1', target_id: 't1', tag: null, trigger: 'cron' as const, cron: '0 3 * * *', timezone: 'Europe/Paris', profile: 'standard' as const, catch_up: 'skip' as const, paused: false, now: '2026-11-20T12:00:00.000Z', target: { account_id: 'a1', deleted: false }, room: { plan: 'free' as const, allowed: 5, live: 0 } };
const fired = (due_at: string, scans = [{ target_id: 't1', scan_id: 'sc1' }]): ScheduleEvent => ({
  type: 'ScheduledScanFired', schemaVersion: 1, data: { schedule_id: 's1', account_id: 'a1', due_at, fired_at: due_at, missed: 0, profile: 'standard', scans, skipped: [] },
});
// 03:00 in Paris is 02:00 UTC in November
const due = '2026-11-21T02:00:00.000Z';

describe('schedule decider', () => {
  it('creates a schedule of one of the account\'s targets', () => {
    spec(scheduleDecider).given([]).when(create).then([created]);
  });

  it('refuses a schedule past the plan\'s cap (403: what the plan includes, not a wait), and takes any number when unlimited', () => {
    spec(scheduleDecider).given([]).when({ ...create, room: { plan: 'free', allowed: 5, live: 4 } }).then([created]);
    const refused = (() => {
      try {
        scheduleDecider.decide({ ...create, room: { plan: 'free', allowed: 5, live: 5 } }, scheduleDecider.initialState());
      } catch (e) {
        return e as { code: string; message: string };
      }
      return null;
    })();
    expect(refused).toMatchObject({ code: 'forbidden', broken: { rule: 'schedule-limit' }, message: 'The free plan includes 5 schedules and this account has 5; delete one, or move to a larger plan, to create another.' });
    spec(scheduleDecider).given([]).when({ ...create, room: { plan: 'enterprise', allowed: null, live: 100_000 } }).then([created]);
  });

  it('refuses another account\'s target, both selectors, bad cron and bad time zones', () => {
    spec(scheduleDecider).given([]).when({ ...create, target: { account_id: 'other', deleted: false } }).thenFails('not_found');
    spec(scheduleDecider).given([]).when({ ...create, tag: 'prod' }).thenFails('invalid', /either target_id or tag/);
    spec(scheduleDecider).given([]).when({ ...create, cron: '* * * * * *' }).thenFails('invalid', /five fields/);
    spec(scheduleDecider).given([]).when({ ...create, cron: '61 * * * *' }).thenFails('invalid', /cron/);
    spec(scheduleDecider).given([]).when({ ...create, timezone: 'Mars/Olympus' }).thenFails('invalid', /time zone/);
  });

  it('carries a budget for the scans it asks for, changed field by field as a whole and taken away with null; its owner checks it', () => {
    const budget = { max_requests: 300, max_cost: 2, price_in: 1, price_out: 4 };
    const withBudget = { ...created, data: { ...created.data, budget } } as ScheduleEvent;
    spec(scheduleDecider).given([]).when({ ...create, budget }).then([withBudget]);
    spec(scheduleDecider).given([]).when({ ...create, budget: { max_cost: 2 } }).thenFails('invalid', /max_cost needs price_in and price_out/);
    const changed = (changes: object): ScheduleEvent => ({ type: 'ScheduleChanged', schemaVersion: 1, data: { schedule_id: 's1', account_id: 'a1', changes, changed_at: due } } as ScheduleEvent);
    const change = (changes: object) => ({ type: 'ChangeSchedule' as const, account_id: 'a1', changes, now: due });
    spec(scheduleDecider).given([withBudget]).when(change({ budget: { ...budget } })).then([]);
    spec(scheduleDecider).given([withBudget]).when(change({ budget: { max_tokens: 5 } })).then([changed({ budget: { max_tokens: 5 } })]);
    expect(fold(scheduleDecider, [withBudget, changed({ budget: null })]).timing?.budget).toBeUndefined();
    expect(fold(scheduleDecider, [withBudget, changed({ profile: 'quick' })]).timing).toMatchObject({ profile: 'quick', budget });
  });

  it('normalises a tag selector', () => {
    const [e] = spec(scheduleDecider).given([]).when({ ...create, target_id: null, target: null, tag: ' Prod ' }).thenEvents();
    expect(e).toMatchObject({ type: 'ScheduleCreated', data: { target_id: null, tag: 'prod' } });
  });

  it('records a change, a pause and a resumption, each as its own event', () => {
    const events = spec(scheduleDecider).given([created]).when({ type: 'ChangeSchedule', account_id: 'a1', changes: { cron: '0 4 * * *', profile: 'standard' }, paused: true, now: 'N' }).thenEvents();
    expect(events.map((e) => e.type)).toEqual(['ScheduleChanged', 'SchedulePaused']);
    expect(events[0].data).toMatchObject({ changes: { cron: '0 4 * * *' } });
    spec(scheduleDecider).given([created]).when({ type: 'ChangeSchedule', account_id: 'a1', changes: {}, paused: false, now: 'N' }).then([]);
    spec(scheduleDecider).given([created]).when({ type: 'ChangeSchedule', account_id: 'a2', changes: {}, now: 'N' }).thenFails('not_found');
  });

  it('fires a due time once: a second scheduler deciding the same time records nothing', () => {
    const fire = { type: 'FireSchedule' as const, due_at: due, missed: 0, targets: [{ target_id: 't1', scan_id: 'sc1', busy: false }], now: due };
    spec(scheduleDecider).given([created]).when(fire).then([fired(due)]);
    spec(scheduleDecider).given([created, fired(due)]).when(fire).then([]);
  });

  it('passes over a target whose previous scan still runs', () => {
    const [e] = spec(scheduleDecider).given([created]).when({ type: 'FireSchedule', due_at: due, missed: 0, targets: [{ target_id: 't1', scan_id: 'sc1', busy: true }], now: due }).thenEvents();
    expect(e.data).toMatchObject({ scans: [], skipped: [{ target_id: 't1', reason: 'previous_scan_running' }] });
  });

  it('never fires a paused or deleted schedule', () => {
    const paused: ScheduleEvent = { type: 'SchedulePaused', schemaVersion: 1, data: { schedule_id: 's1', account_id: 'a1', paused_at: 'x' } };
    const fire = { type: 'FireSchedule' as const, due_at: due, missed: 0, targets: [], now: due };
    spec(scheduleDecider).given([created, paused]).when(fire).then([]);
    spec(scheduleDecider).given([created, { type: 'ScheduleDeleted', schemaVersion: 1, data: { schedule_id: 's1', account_id: 'a1', deleted_at: 'x' } }]).when(fire).then([]);
    expect(scheduleDue(fold(scheduleDecider, [created, paused]), due, 60_000)).toEqual({ kind: 'nothing' });
  });

  it('a planned scan the write path refused is settled once', () => {
    const refuse = { type: 'RecordScanNotStarted' as const, due_at: due, target_id: 't1', scan_id: 'sc1', reason: 'quota', now: due };
    const [e] = spec(scheduleDecider).given([created, fired(due)]).when(refuse).thenEvents();
    spec(scheduleDecider).given([created, fired(due), e]).when(refuse).then([]);
    expect(unsettledScans(fold(scheduleDecider, [created, fired(due)]))).toEqual([{ target_id: 't1', scan_id: 'sc1' }]);
    expect(unsettledScans(fold(scheduleDecider, [created, fired(due), e]))).toEqual([]);
  });
});

describe('a schedule that fires after each deploy', () => {
  const createOnDeploy = { ...create, trigger: 'deploy' as const, cron: null, timezone: null, catch_up: null };
  const onDeploy: ScheduleEvent = { type: 'ScheduleCreated', schemaVersion: 1, data: { ...created.data, trigger: 'deploy', cron: null, timezone: null, catch_up: null } as never };
  const deploy = { deploy_id: 'build-812', environment: 'production', version: '2.4.1' };
  const report = { type: 'FireOnDeploy' as const, deploy, targets: [{ target_id: 't1', scan_id: 'sc1', busy: false }], now: '2026-11-21T09:30:00.000Z' };
  const firedOnDeploy: ScheduleEvent = {
    type: 'ScheduledScanFired', schemaVersion: 1,
    data: { schedule_id: 's1', account_id: 'a1', due_at: report.now, fired_at: report.now, missed: 0, profile: 'standard', scans: [{ target_id: 't1', scan_id: 'sc1' }], skipped: [], deploy },
  };

  it('is created without a time table, and refuses one', () => {
    spec(scheduleDecider).given([]).when(createOnDeploy).then([onDeploy]);
    spec(scheduleDecider).given([]).when({ ...createOnDeploy, cron: '0 3 * * *' } as never).thenFails('invalid', /deploy schedule has no cron/);
    spec(scheduleDecider).given([]).when({ ...createOnDeploy, trigger: 'nightly' } as never).thenFails('invalid', /trigger must be/);
  });

  it('a cron schedule recorded before deploy schedules existed (no trigger) is read as a cron schedule', () => {
    const { trigger: _, ...legacy } = created.data as typeof created.data & { trigger: string };
    const state = fold(scheduleDecider, [{ ...created, data: legacy } as ScheduleEvent]);
    expect(state.timing).toEqual({ trigger: 'cron', cron: '0 3 * * *', timezone: 'Europe/Paris', catch_up: 'skip', profile: 'standard' });
    expect(scheduleDue(state, '2026-11-21T02:00:30.000Z', 60_000)).toMatchObject({ kind: 'fire' });
  });

  it('changes its profile and pauses, but takes no cron', () => {
    const [e] = spec(scheduleDecider).given([onDeploy]).when({ type: 'ChangeSchedule', account_id: 'a1', changes: { profile: 'quick' }, now: 'N' }).thenEvents();
    expect(e).toMatchObject({ type: 'ScheduleChanged', data: { changes: { profile: 'quick' } } });
    spec(scheduleDecider).given([onDeploy]).when({ type: 'ChangeSchedule', account_id: 'a1', changes: { timezone: 'UTC' }, now: 'N' }).thenFails('invalid', /no cron, timezone or catch_up/);
  });

  it('fires once per deploy: the same deploy reported again records nothing, another deploy fires again', () => {
    spec(scheduleDecider).given([onDeploy]).when(report).then([firedOnDeploy]);
    spec(scheduleDecider).given([onDeploy, firedOnDeploy]).when({ ...report, now: '2026-11-21T09:31:00.000Z' }).then([]);
    const [again] = spec(scheduleDecider).given([onDeploy, firedOnDeploy]).when({ ...report, deploy: { ...deploy, deploy_id: 'build-813' }, targets: [{ target_id: 't1', scan_id: 'sc2', busy: false }] }).thenEvents();
    expect(again.data).toMatchObject({ deploy: { deploy_id: 'build-813' }, scans: [{ scan_id: 'sc2' }] });
    expect(fold(scheduleDecider, [onDeploy, firedOnDeploy]).deploys['build-812']).toEqual({ due_at: report.now, scans: [{ target_id: 't1', scan_id: 'sc1' }], skipped: [] });
  });

  it('remembers the last DEPLOYS_REMEMBERED deploys: a retry of a recent one fires nothing, the oldest is forgotten', () => {
    const fired = (n: number) => ({ ...firedOnDeploy, data: { ...firedOnDeploy.data, deploy: { ...deploy, deploy_id: String(n) } } });
    const history = [onDeploy, ...Array.from({ length: DEPLOYS_REMEMBERED + 1 }, (_, n) => fired(n))];
    const state = fold(scheduleDecider, history);
    expect(Object.keys(state.deploys)).toHaveLength(DEPLOYS_REMEMBERED);
    expect(state.deploys['0']).toBeUndefined();
    expect(state.deploy_ids[0]).toBe('1');
    spec(scheduleDecider).given(history).when({ ...report, deploy: { ...deploy, deploy_id: String(DEPLOYS_REMEMBERED) } }).then([]);
    const [again] = spec(scheduleDecider).given(history).when({ ...report, deploy: { ...deploy, deploy_id: '0' } }).thenEvents();
    expect(again.data).toMatchObject({ deploy: { deploy_id: '0' } });
  });

  it('passes over a target still being scanned, and a paused or deleted schedule fires nothing', () => {
    const [e] = spec(scheduleDecider).given([onDeploy]).when({ ...report, targets: [{ target_id: 't1', scan_id: 'sc1', busy: true }] }).thenEvents();
    expect(e.data).toMatchObject({ scans: [], skipped: [{ target_id: 't1', reason: 'previous_scan_running' }] });
    spec(scheduleDecider).given([onDeploy, { type: 'SchedulePaused', schemaVersion: 1, data: { schedule_id: 's1', account_id: 'a1', paused_at: 'x' } }]).when(report).then([]);
    spec(scheduleDecider).given([onDeploy, { type: 'ScheduleDeleted', schemaVersion: 1, data: { schedule_id: 's1', account_id: 'a1', deleted_at: 'x' } }]).when(report).then([]);
  });

  it('never fires on a clock, and a cron schedule never fires on a deploy', () => {
    const state = fold(scheduleDecider, [onDeploy]);
    expect(scheduleDue(state, '2027-01-01T00:00:00.000Z', 60_000)).toEqual({ kind: 'nothing' });
    spec(scheduleDecider).given([onDeploy]).when({ type: 'FireSchedule', due_at: due, missed: 0, targets: [], now: due }).then([]);
    spec(scheduleDecider).given([created]).when(report).thenFails('conflict', /deploy schedule/);
  });

  it('a planned scan of a deploy firing the write path refused is settled like a cron firing\'s', () => {
    const state = fold(scheduleDecider, [onDeploy, firedOnDeploy]);
    expect(unsettledScans(state)).toEqual([{ target_id: 't1', scan_id: 'sc1' }]);
    const [e] = spec(scheduleDecider).given([onDeploy, firedOnDeploy]).when({ type: 'RecordScanNotStarted', due_at: report.now, target_id: 't1', scan_id: 'sc1', reason: 'quota', now: 'N' }).thenEvents();
    expect(unsettledScans(fold(scheduleDecider, [onDeploy, firedOnDeploy, e]))).toEqual([]);
  });
});

describe('when a schedule is due (the catch-up policy)', () => {
  const state = fold(scheduleDecider, [created]);

  it('is not due before its time, and due at it', () => {
    expect(scheduleDue(state, '2026-11-21T01:59:00.000Z', 60_000)).toEqual({ kind: 'nothing' });
    expect(scheduleDue(state, '2026-11-21T02:00:30.000Z', 60_000)).toEqual({ kind: 'fire', due_at: due, missed: 0 });
  });

  it('after a downtime, skip records the missed times and run_once runs the latest once', () => {
    const threeDaysLater = '2026-11-23T09:00:00.000Z';
    expect(scheduleDue(state, threeDaysLater, 60_000)).toEqual({ kind: 'skip_missed', due_at: '2026-11-23T02:00:00.000Z', missed: 3 });
    const runOnce = fold(scheduleDecider, [{ ...created, data: { ...created.data, catch_up: 'run_once' } } as ScheduleEvent]);
    expect(scheduleDue(runOnce, threeDaysLater, 60_000)).toEqual({ kind: 'fire', due_at: '2026-11-23T02:00:00.000Z', missed: 2 });
  });

  it('owes nothing for the time it was paused, nor for an old time table', () => {
    const paused = fold(scheduleDecider, [
      created,
      { type: 'SchedulePaused', schemaVersion: 1, data: { schedule_id: 's1', account_id: 'a1', paused_at: '2026-11-20T13:00:00.000Z' } },
      { type: 'ScheduleResumed', schemaVersion: 1, data: { schedule_id: 's1', account_id: 'a1', resumed_at: '2026-11-23T09:00:00.000Z' } },
    ]);
    expect(scheduleDue(paused, '2026-11-23T09:00:10.000Z', 60_000)).toEqual({ kind: 'nothing' });
    expect(scheduleDue(fold(scheduleDecider, [created, fired(due)]), '2026-11-21T02:10:00.000Z', 60_000)).toEqual({ kind: 'nothing' });
  });
});

describe('cron with a time zone', () => {
  it('reads the expression in the time zone, across a daylight saving change', () => {
    expect(nextDueAfter('0 3 * * *', 'Europe/Paris', '2026-07-01T12:00:00.000Z')).toBe('2026-07-02T01:00:00.000Z');
    expect(nextDueAfter('0 3 * * *', 'Europe/Paris', '2026-11-01T12:00:00.000Z')).toBe('2026-11-02T02:00:00.000Z');
  });

  it('counts due times in a window', () => {
    expect(dueTimesBetween('*/15 * * * *', 'UTC', '2026-11-21T00:00:00.000Z', '2026-11-21T01:00:00.000Z')).toEqual({ count: 4, latest: '2026-11-21T01:00:00.000Z', truncated: false });
  });

  it('names what is wrong', () => {
    expect(cronProblem('0 3 * * *', 'UTC')).toBeNull();
    expect(cronProblem('0 3 * *', 'UTC')?.field).toBe('cron');
    expect(cronProblem('0 3 * * *', 'Nowhere/City')?.field).toBe('timezone');
  });
});
