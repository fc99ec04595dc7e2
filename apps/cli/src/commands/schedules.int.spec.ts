import { Command } from 'commander';
import { removeDir, RunningService, signUp, startService } from '../../../../test/support/service';
import { main } from '../main';
import { registerSchedules, SchedulesIo } from './schedules';

/** `gauntlet schedules ...` against the real service (embedded engines), through its own client */
describe('gauntlet schedules', () => {
  let svc: RunningService;
  let key: string;
  let target: string;

  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000' }, ['api', 'projector']);
    const { api } = await signUp(svc.url);
    key = (await api.post('/api/api-keys', { name: 'cli' })).body.key;
    target = (await api.post('/api/targets', { name: 'nightly', url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai' })).body.id;
  });
  afterAll(async () => {
    await svc.stop();
    removeDir(svc.dataDir);
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  async function gauntlet(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const io: SchedulesIo = { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env: { GAUNTLET_URL: svc.url, GAUNTLET_API_KEY: key }, fetch: (...a) => fetch(...a) };
    const program = new Command('gauntlet').exitOverride();
    registerSchedules(program, io);
    await program.parseAsync(argv, { from: 'user' });
    return { out, err, code: process.exitCode ?? 0 };
  }

  it('creates, lists, pauses, resumes, changes and deletes a schedule', async () => {
    const created = await gauntlet('schedules', '--json', 'create', '--target', target, '--cron', '0 3 * * 1-5', '--timezone', 'Europe/Paris', '--catch-up', 'run_once');
    expect(created.code).toBe(0);
    const s = JSON.parse(created.out.join('\n'));
    expect(s).toMatchObject({ target_id: target, cron: '0 3 * * 1-5', timezone: 'Europe/Paris', catch_up: 'run_once', profile: 'standard', paused: false });

    const listed = await gauntlet('schedules', 'list');
    expect(listed.out).toHaveLength(1);
    expect(listed.out[0]).toContain(s.id);
    expect(listed.out[0]).toContain('"0 3 * * 1-5" Europe/Paris');

    expect((await gauntlet('schedules', 'pause', s.id)).out[0]).toMatch(/paused$/);
    expect((await gauntlet('schedules', 'resume', s.id)).out[0]).toMatch(/next 20\d\d-/);
    const changed = await gauntlet('schedules', '--json', 'update', s.id, '--cron', '30 4 * * *', '--profile', 'quick');
    expect(JSON.parse(changed.out.join('\n'))).toMatchObject({ cron: '30 4 * * *', profile: 'quick' });

    expect((await gauntlet('schedules', 'delete', s.id)).out).toEqual([`deleted ${s.id}`]);
    const gone = await gauntlet('schedules', 'get', s.id);
    expect(gone.code).toBe(2);
    expect(gone.err[0]).toMatch(/404 Schedule not found/);
  });

  it('gives a schedule a budget for its scans, and changes it field by field', async () => {
    const created = await gauntlet('schedules', '--json', 'create', '--target', target, '--cron', '0 3 * * *', '--max-requests', '300', '--price-in', '0.15', '--price-out', '0.6');
    expect(created.code).toBe(0);
    const s = JSON.parse(created.out.join('\n'));
    expect(s.budget).toEqual({ max_requests: 300, price_in: 0.15, price_out: 0.6 });
    const changed = await gauntlet('schedules', '--json', 'update', s.id, '--max-cost', '2.5');
    expect(JSON.parse(changed.out.join('\n')).budget).toEqual({ max_requests: 300, max_cost: 2.5, price_in: 0.15, price_out: 0.6 });
    await expect(gauntlet('schedules', 'update', s.id, '--max-requests', '0')).rejects.toThrow(/must be at least 1/);
    await gauntlet('schedules', 'delete', s.id);
  });

  it('exits 2 with the service\'s reason on a bad request, and refuses a cron without five fields itself', async () => {
    const bad = await gauntlet('schedules', 'create', '--tag', 'prod', '--cron', '0 3 * * *', '--timezone', 'Mars/Olympus');
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toMatch(/400 .*time zone/);
    await expect(gauntlet('schedules', 'create', '--tag', 'prod', '--cron', '0 3 * *')).rejects.toThrow(/five fields/);
  });

  it('creates a deploy schedule, and `gauntlet deploy` fires it once per deploy id (through the program, as a pipeline runs it)', async () => {
    const created = await gauntlet('schedules', '--json', 'create', '--target', target, '--on-deploy', '--profile', 'quick');
    expect(created.code).toBe(0);
    const s = JSON.parse(created.out.join('\n'));
    expect(s).toMatchObject({ target_id: target, trigger: 'deploy', cron: null, timezone: null, catch_up: null, profile: 'quick' });
    expect((await gauntlet('schedules', 'list')).out.find((l) => l.includes(s.id))).toContain('after each deploy');
    await expect(gauntlet('schedules', 'create', '--target', target, '--on-deploy', '--cron', '0 3 * * *')).rejects.toThrow(/cannot be used with/);

    const out: string[] = [];
    const err: string[] = [];
    const cli = (...argv: string[]) => main(argv, { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env: { GAUNTLET_URL: svc.url, GAUNTLET_API_KEY: key } });
    expect(await cli('deploy', '--target', target, '--deploy-id', 'run-41', '--environment', 'staging')).toBe(0);
    expect(out[0]).toBe('deploy run-41');
    expect(out.join('\n')).toMatch(/scan requested/);
    out.length = 0;
    expect(await cli('deploy', '--target', target, '--deploy-id', 'run-41', '--json')).toBe(0);
    const again = JSON.parse(out.join('\n'));
    expect(again).toMatchObject({ deploy_id: 'run-41', scans: [{ schedule_id: s.id, target_id: target }] });
    expect(await cli('deploy')).toBe(2);
    expect(err.pop()).toMatch(/give --target ID or --tag TAG/);
    // the schedules command answers through the program too
    out.length = 0;
    expect(await cli('schedules', 'get', s.id)).toBe(0);
    expect(out[0]).toMatch(/deploy run-41 \(1 scan\(s\), 0 skipped\)/);
    expect(await cli('schedules', 'get', '00000000-0000-4000-8000-000000000000')).toBe(2);
  });
});
