import { scheduleDecider } from '@gauntlet/domain';
import { Scheduler } from '../../apps/gauntlet/src/schedules/scheduler';
import { client, removeDir, RunningService, signUp, startService } from '../support/service';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * Schedules that fire after each deploy, over the api: a pipeline reports deploys with its API key
 * on the CI endpoint. No scanner runs here, so requested scans stay pending until cancelled.
 */
describe('deploy schedules: a deploy reported through the CI api fires each covering schedule once', () => {
  let svc: RunningService;
  let api: ReturnType<typeof client>;
  let pipeline: ReturnType<typeof client>;
  let target: { id: string };

  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000' }, ['api', 'projector', 'relay']);
    ({ api } = await signUp(svc.url));
    pipeline = client(svc.url, { apiKey: (await api.post('/api/api-keys', { name: 'pipeline' })).body.key });
    target = (await api.post('/api/targets', { name: 'support bot', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags: ['shop'] })).body;
  });
  afterAll(async () => {
    await svc.stop();
    removeDir(svc.dataDir);
  });

  const scansOf = async (target_id: string) => (await api.get(`/api/scans?target_id=${target_id}`)).body.scans as any[];
  const firingsOf = async (schedule_id: string) =>
    (await svc.runtime.infra.events.readStream(`schedule-${schedule_id}`)).filter((e) => e.type === 'ScheduledScanFired').map((e) => e.data as any);

  it('creates a deploy schedule without a time table, refuses one with, and keeps a body with cron a cron schedule', async () => {
    const cron = await api.post('/api/schedules', { target_id: target.id, cron: '0 3 * * *', timezone: 'UTC', catch_up: 'skip' });
    expect(cron.status).toBe(201);
    expect(cron.body).toMatchObject({ trigger: 'cron', cron: '0 3 * * *' });
    expect((await api.delete(`/api/schedules/${cron.body.id}`)).status).toBe(204);

    for (const body of [
      { target_id: target.id, trigger: 'deploy', cron: '0 3 * * *' },
      { target_id: target.id, trigger: 'deploy', catch_up: 'skip' },
      { target_id: target.id, trigger: 'deploy', timezone: null },
      { target_id: target.id, trigger: 'hourly' },
      { target_id: target.id },
    ]) {
      const r = await api.post('/api/schedules', body);
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
    }
  });

  it('the same deploy_id twice and another deploy: exactly two scans, two firings on the schedule\'s stream', async () => {
    const created = await api.post('/api/schedules', { target_id: target.id, trigger: 'deploy', profile: 'quick' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ trigger: 'deploy', cron: null, timezone: null, catch_up: null, next_run_at: null, paused: false, last_firing: null });
    const id = created.body.id;

    const first = await pipeline.post('/api/ci/deploy', { target_id: target.id, deploy_id: 'build-812', environment: 'production', version: '2.4.1' });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ deploy_id: 'build-812', skipped: [], not_started: [] });
    expect(first.body.scans).toEqual([{ schedule_id: id, target_id: target.id, scan_id: expect.any(String) }]);

    // the pipeline retries the same deploy: the same scan, nothing fired again
    const retry = await pipeline.post('/api/ci/deploy', { target_id: target.id, deploy_id: 'build-812' });
    expect(retry.status).toBe(202);
    expect(retry.body.scans).toEqual(first.body.scans);
    const scans = await scansOf(target.id);
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ id: first.body.scans[0].scan_id, origin: 'schedule', profile: 'quick', status: 'pending' });

    // no scanner runs here: the first scan is cancelled, so the next deploy finds the target free
    expect((await api.post(`/api/scans/${scans[0].id}/cancel`)).status).toBeLessThan(300);
    const other = await pipeline.post('/api/ci/deploy', { target_id: target.id, deploy_id: 'build-813' });
    expect(other.status).toBe(202);
    expect(other.body.scans).toHaveLength(1);
    expect(other.body.scans[0].scan_id).not.toBe(first.body.scans[0].scan_id);
    expect(await scansOf(target.id)).toHaveLength(2);

    // the auditor's view: one firing per deploy, each with the deploy it answered
    expect((await firingsOf(id)).map((f) => f.deploy)).toEqual([
      { deploy_id: 'build-812', environment: 'production', version: '2.4.1' },
      { deploy_id: 'build-813', environment: null, version: null },
    ]);
    expect((await api.get(`/api/schedules/${id}`)).body.last_firing).toMatchObject({ deploy: { deploy_id: 'build-813' }, scans: [{ scan_id: other.body.scans[0].scan_id }] });

    // a deploy while that scan still runs passes the target over
    const busy = await pipeline.post('/api/ci/deploy', { tag: 'SHOP', deploy_id: 'build-814' });
    expect(busy.body).toMatchObject({ scans: [], skipped: [{ schedule_id: id, target_id: target.id, reason: 'previous_scan_running' }] });
    expect(await scansOf(target.id)).toHaveLength(2);

    // a scheduler's tick never fires a deploy schedule on the clock
    const tick = await new Scheduler({ writePath: svc.runtime.writePath, docs: svc.runtime.infra.documents, config: svc.runtime.config, clock: svc.runtime.clock, log: silent }, { tickMs: 60_000, graceMs: 120_000, id: 'x' }).tick();
    expect(tick).toEqual({ fired: 0, missed: 0, requested: 0, refused: 0, deferred: 0 });
    expect((await api.delete(`/api/schedules/${id}`)).status).toBe(204);
  });

  it('a paused deploy schedule fires nothing; nothing covering the deploy is 202 with empty lists; an unknown target is 404', async () => {
    const other = (await api.post('/api/targets', { name: 'checkout bot', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags: ['checkout'] })).body;
    const paused = (await api.post('/api/schedules', { tag: 'checkout', trigger: 'deploy', paused: true })).body;
    expect(paused).toMatchObject({ paused: true, tag: 'checkout' });

    const r = await pipeline.post('/api/ci/deploy', { tag: 'checkout', deploy_id: 'build-900' });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ deploy_id: 'build-900', scans: [], skipped: [], not_started: [] });
    expect(await scansOf(other.id)).toHaveLength(0);
    expect(await firingsOf(paused.id)).toEqual([]);

    // resumed, the next deploy fires it
    expect((await api.patch(`/api/schedules/${paused.id}`, { paused: false })).body.paused).toBe(false);
    const fired = await pipeline.post('/api/ci/deploy', { target_id: other.id });
    expect(fired.body.scans).toEqual([{ schedule_id: paused.id, target_id: other.id, scan_id: expect.any(String) }]);
    expect(fired.body.deploy_id).toEqual(expect.any(String));

    const unknown = await pipeline.post('/api/ci/deploy', { target_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/problem\+json/);
    const both = await pipeline.post('/api/ci/deploy', { target_id: other.id, tag: 'checkout' });
    expect(both.status).toBe(400);
  });

  it('the same deploy reported to two api requests at once fires once; a firing whose scans were never asked for is finished by the scheduler', async () => {
    const bot = (await api.post('/api/targets', { name: 'search bot', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai' })).body;
    const schedule = (await api.post('/api/schedules', { target_id: bot.id, trigger: 'deploy' })).body;
    const [a, b] = await Promise.all([pipeline.post('/api/ci/deploy', { target_id: bot.id, deploy_id: 'race-1' }), pipeline.post('/api/ci/deploy', { target_id: bot.id, deploy_id: 'race-1' })]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body.scans).toEqual(b.body.scans);
    expect(await firingsOf(schedule.id)).toHaveLength(1);
    expect(await scansOf(bot.id)).toHaveLength(1);
    expect((await api.post(`/api/scans/${a.body.scans[0].scan_id}/cancel`)).status).toBeLessThan(300);

    // an api process that stopped right after recording the firing: the scan was never asked for
    const planned = { target_id: bot.id, scan_id: '6d1f1d6e-7a0b-5c55-8f5e-0d6a1b2c3d4e' };
    await svc.runtime.writePath.decide(
      scheduleDecider, `schedule-${schedule.id}`,
      { type: 'FireOnDeploy', deploy: { deploy_id: 'cut-short', environment: null, version: null }, targets: [{ ...planned, busy: false }], now: new Date().toISOString() },
      { actor: 'spec', correlationId: 'cut-short' },
    );
    const tick = await new Scheduler({ writePath: svc.runtime.writePath, docs: svc.runtime.infra.documents, config: svc.runtime.config, clock: svc.runtime.clock, log: silent }, { tickMs: 60_000, graceMs: 120_000, id: 'y' }).tick();
    expect(tick).toMatchObject({ fired: 0, requested: 1 });
    expect((await scansOf(bot.id)).map((s) => s.id)).toContain(planned.scan_id);
    // and the pipeline's retry of that deploy answers the same scan, asking for nothing more
    expect((await pipeline.post('/api/ci/deploy', { target_id: bot.id, deploy_id: 'cut-short' })).body.scans).toEqual([{ schedule_id: schedule.id, ...planned }]);
    expect(await scansOf(bot.id)).toHaveLength(2);
  });
});
