import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RoleProcess, startRole } from '../support/processes';
import { eventually } from '../support/receiver';
import { removeDir, signUp } from '../support/service';

/**
 * Two scheduler processes on one event store (the embedded SQLite file they share), on the system
 * clock: a schedule due every minute fires once per due time, whichever process gets there first;
 * killing one with -9 changes nothing. No scanner runs, so each
 * scan stays pending and the next due time passes the target over (still being scanned).
 */
describe('two scheduler processes fire each due time exactly once', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-schedulers-'));
  const port = 21000 + Math.floor(Math.random() * 9000);
  const env: Record<string, string> = {
    DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '100000', LOG_LEVEL: 'info',
    SCHEDULER_TICK_MS: '250',
  };
  const procs: RoleProcess[] = [];
  const base = `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    // the api first: it writes the generated secrets the other processes share
    procs.push(await startRole('api,projector', env, 'gauntlet api listening'));
    procs.push(...(await Promise.all([startRole('scheduler', env), startRole('scheduler', env)])));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.kill()));
    removeDir(dataDir);
  }, 60_000);

  it('fires every minute once, across a kill -9 of one scheduler (pausing is specified in schedules.e2e)', async () => {
    const { api } = await signUp(base);
    const target = (await api.post('/api/targets', { name: 'every minute', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai' })).body;
    const schedule = (await api.post('/api/schedules', { target_id: target.id, cron: '* * * * *', timezone: 'UTC', catch_up: 'skip', profile: 'quick' })).body;
    expect(schedule.id).toBeDefined();
    const firstDue = schedule.next_run_at;

    // the first due time: one firing, one scan
    const first = await eventually(async () => {
      const s = (await api.get(`/api/schedules/${schedule.id}`)).body;
      return s.last_firing?.due_at === firstDue ? s : undefined;
    }, 75_000, 250);
    expect(first.last_firing.scans).toHaveLength(1);
    await eventually(async () => ((await api.get(`/api/scans?target_id=${target.id}`)).body.scans.length === 1 ? true : undefined), 10_000);

    // one scheduler dies hard; the other decides the next due time alone: the first scan still pends, so the target is passed over
    await procs[1].kill('SIGKILL');
    const secondDue = first.next_run_at;
    const second = await eventually(async () => {
      const s = (await api.get(`/api/schedules/${schedule.id}`)).body;
      return s.last_firing?.due_at === secondDue ? s : undefined;
    }, 75_000, 250);
    expect(second.last_firing).toMatchObject({ scans: [], skipped: [{ target_id: target.id, reason: 'previous_scan_running' }] });

    // the log holds exactly one firing per due time, whoever made it
    const both = [procs[1].output(), procs[2].output()].join('\n');
    const firings = both.split('\n').filter((l) => l.includes('"schedule fired"') && l.includes(schedule.id));
    expect(firings.map((l) => JSON.parse(l).due_at).sort()).toEqual([firstDue, secondDue]);
    expect((await api.get(`/api/scans?target_id=${target.id}`)).body.scans).toHaveLength(1);
  }, 200_000);
});
