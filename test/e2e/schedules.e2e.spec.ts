import { Clock } from '../../apps/gauntlet/src/platform/clock';
import { Scheduler } from '../../apps/gauntlet/src/schedules/scheduler';
import type { Runtime } from '../../apps/gauntlet/src/runtime';
import { client, removeDir, RunningService, signUp, startService } from '../support/service';

/** the clock the schedulers read, moved by the spec */
class SpecClock extends Clock {
  constructor(public at: Date) {
    super();
  }
  now(): Date {
    return this.at;
  }
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const schedulerOf = (runtime: Runtime, clock: Clock, id: string) =>
  new Scheduler({ writePath: runtime.writePath, docs: runtime.infra.documents, config: runtime.config, clock, log: silent }, { tickMs: 60_000, graceMs: 120_000, id });

/**
 * Schedules over the api, fired by schedulers that tick on a clock the spec moves: two schedulers
 * deciding the same due time start one scan, a restart fires nothing twice, a paused schedule and
 * a target still being scanned get nothing. No scanner runs here, so requested scans stay pending.
 */
describe('schedules: created over the api, fired exactly once by several schedulers', () => {
  let svc: RunningService;
  let api: ReturnType<typeof client>;
  let token: string;
  let target: { id: string };
  const clock = new SpecClock(new Date('2026-11-20T12:00:00.000Z'));

  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000' }, ['api', 'projector', 'relay']);
    ({ api, token } = await signUp(svc.url));
    target = (await api.post('/api/targets', { name: 'nightly', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags: ['Prod', 'eu'] })).body;
  });
  afterAll(async () => {
    await svc.stop();
    removeDir(svc.dataDir);
  });

  const scansOf = async (target_id: string) => (await api.get(`/api/scans?target_id=${target_id}`)).body.scans as any[];

  it('tags targets and lists them by tag', async () => {
    expect(target).toMatchObject({ tags: ['prod', 'eu'], regression_threshold: null });
    const other = (await api.post('/api/targets', { name: 'staging', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags: ['staging'] })).body;
    expect((await api.get('/api/targets?tag=PROD')).body.targets.map((t: any) => t.id)).toEqual([target.id]);
    expect((await api.get('/api/targets?tag=staging')).body.targets.map((t: any) => t.id)).toEqual([other.id]);
    const bad = await api.post('/api/targets', { name: 'x', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags: ['has space'] });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('refuses a bad cron, a bad time zone and a selector that names both or neither', async () => {
    for (const body of [
      { target_id: target.id, cron: '* * * * * *', timezone: 'UTC', catch_up: 'skip' },
      { target_id: target.id, cron: '0 3 * * *', timezone: 'Mars/Olympus', catch_up: 'skip' },
      { target_id: target.id, tag: 'prod', cron: '0 3 * * *', timezone: 'UTC', catch_up: 'skip' },
      { cron: '0 3 * * *', timezone: 'UTC', catch_up: 'skip' },
    ]) {
      const r = await api.post('/api/schedules', body);
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
    }
  });

  it('two schedulers fire a due time once; a restarted one fires nothing again; a running scan and a pause get nothing', async () => {
    const created = await api.post('/api/schedules', { target_id: target.id, cron: '0 3 * * *', timezone: 'Europe/Paris', catch_up: 'skip', profile: 'quick' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    // the api records with the system clock; the schedulers read the spec's, set relative to the first due time
    const due0 = Date.parse(created.body.next_run_at);
    const DAY = 24 * 3600_000;
    expect(new Date(due0).toLocaleString('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' })).toBe('03:00');
    expect(created.body).toMatchObject({ paused: false, last_firing: null });

    clock.at = new Date(due0 + 5_000);
    const [a, b] = await Promise.all([schedulerOf(svc.runtime, clock, 'a').tick(), schedulerOf(svc.runtime, clock, 'b').tick()]);
    expect(a.fired + b.fired).toBe(1);
    expect(a.requested + b.requested).toBe(1);
    const scans = await scansOf(target.id);
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ origin: 'schedule', profile: 'quick', status: 'pending' });
    const view = (await api.get(`/api/schedules/${id}`)).body;
    expect(view.last_firing).toMatchObject({ due_at: new Date(due0).toISOString(), scans: [{ target_id: target.id, scan_id: scans[0].id }], skipped: [] });
    expect(Date.parse(view.next_run_at)).toBeGreaterThan(due0);

    // a restart of the whole service: the log remembers the firing
    svc = await svc.restart();
    api = client(svc.url, { token });
    expect(await schedulerOf(svc.runtime, clock, 'c').tick()).toEqual({ fired: 0, missed: 0, requested: 0, refused: 0, deferred: 0 });

    // the next day the first scan is still pending (no scanner runs): the firing passes the target over
    clock.at = new Date(Date.parse(view.next_run_at) + 30_000);
    expect((await schedulerOf(svc.runtime, clock, 'c').tick()).fired).toBe(1);
    expect((await api.get(`/api/schedules/${id}`)).body.last_firing).toMatchObject({ scans: [], skipped: [{ target_id: target.id, reason: 'previous_scan_running' }] });
    expect(await scansOf(target.id)).toHaveLength(1);

    // paused: due times pass without a firing
    const paused = await api.patch(`/api/schedules/${id}`, { paused: true });
    expect(paused.body).toMatchObject({ paused: true, next_run_at: null });
    clock.at = new Date(due0 + 2 * DAY + 10_000);
    expect((await schedulerOf(svc.runtime, clock, 'c').tick()).fired).toBe(0);
    expect(await scansOf(target.id)).toHaveLength(1);
    // resumed (at the api's now, before those due times): the schedule fires again once due
    const resumed = (await api.patch(`/api/schedules/${id}`, { paused: false })).body;
    expect(resumed.paused).toBe(false);
    expect(resumed.next_run_at).not.toBeNull();
  });

  it('a schedule by tag scans every target carrying it, and catch-up skip records what a downtime missed', async () => {
    const tagged = (await api.post('/api/targets', { name: 'eu bot', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags: ['fleet-b'] })).body;
    const also = (await api.post('/api/targets', { name: 'eu bot 2', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags: ['fleet-b', 'x'] })).body;
    const byTag = (await api.post('/api/schedules', { tag: 'Fleet-B', cron: '*/30 * * * *', timezone: 'UTC', catch_up: 'skip' })).body;
    expect(byTag).toMatchObject({ tag: 'fleet-b', target_id: null });
    const list = (await api.get('/api/schedules')).body.schedules.map((s: any) => s.id);
    expect(list).toContain(byTag.id);

    // the api's clock is the system's: the schedule was created "now"; the schedulers see a time 30 min to 3 h later
    const createdAt = Date.parse(byTag.created_at);
    const firstDue = Date.parse(byTag.next_run_at);
    clock.at = new Date(firstDue + 1_000);
    expect(createdAt).toBeLessThan(firstDue);
    expect((await schedulerOf(svc.runtime, clock, 'd').tick()).fired).toBeGreaterThanOrEqual(1);
    expect((await scansOf(tagged.id)).length).toBe(1);
    expect((await scansOf(also.id)).length).toBe(1);

    // three hours without a scheduler: skip records the six missed due times, starts nothing
    clock.at = new Date(firstDue + 3 * 3600_000 + 5 * 60_000);
    const late = await schedulerOf(svc.runtime, clock, 'd').tick();
    expect(late.fired).toBe(0);
    expect(late.missed).toBe(6);
    expect((await api.get(`/api/schedules/${byTag.id}`)).body.missed_total).toBe(6);

    expect((await api.delete(`/api/schedules/${byTag.id}`)).status).toBe(204);
    expect((await api.get(`/api/schedules/${byTag.id}`)).status).toBe(404);
  });

  it("refuses a schedule past the plan's cap with 403 and one clear line; a deleted one makes room", async () => {
    const { api: other } = await signUp(svc.url);
    const mine = (await other.post('/api/targets', { name: 'capped', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai' })).body;
    const body = { target_id: mine.id, cron: '0 4 * * *', timezone: 'UTC', catch_up: 'skip' };
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await other.post('/api/schedules', body);
      expect(r.status).toBe(201);
      made.push(r.body.id);
    }
    const refused = await other.post('/api/schedules', body);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/problem\+json/);
    expect(refused.body.detail).toBe('The free plan includes 5 schedules and this account has 5; delete one, or move to a larger plan, to create another.');
    // the cap is the account's: another account still creates schedules
    expect((await api.post('/api/schedules', { ...body, target_id: target.id })).status).toBe(201);
    expect((await other.delete(`/api/schedules/${made[0]}`)).status).toBe(204);
    expect((await other.post('/api/schedules', body)).status).toBe(201);
  });
});
