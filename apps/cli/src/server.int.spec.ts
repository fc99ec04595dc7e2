import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningLab, startLab } from '../../lab/src/lab';
import { removeDir, RunningService, signUp, startService } from '../../../test/support/service';
import { EXIT, main } from './main';

/** targets and scans subcommands against the real service, in this process, on a temp data folder */
describe('gauntlet targets / scans against a service', () => {
  jest.setTimeout(120_000);
  let service: RunningService;
  let lab: RunningLab;
  let env: Record<string, string>;
  let api: Awaited<ReturnType<typeof signUp>>['api'];
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-cli-server-'));

  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable' });
    service = await startService({ SCAN_QUOTA_FREE: 'unlimited' });
    const user = await signUp(service.url);
    api = user.api;
    const key = await api.post('/api/api-keys', { name: 'cli' });
    env = { GAUNTLET_URL: service.url, GAUNTLET_API_KEY: key.body.key, LAB_KEY: 'not-needed' };
  });
  afterAll(async () => {
    await service?.stop();
    await lab?.close();
    removeDir(service?.dataDir ?? '');
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(args: string[], extraEnv: Record<string, string> = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env: { ...env, ...extraEnv }, cwd: dir, isTty: false });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  async function scanned(targetId: string): Promise<string> {
    const { body } = await api.post('/api/scans', { target_id: targetId, profile: 'quick' });
    for (let i = 0; i < 600; i++) {
      const status = await api.get(`/api/scans/${body.id}/status`);
      if (!['pending', 'running'].includes(status.body.status)) return body.id;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('scan did not end');
  }

  it('adds, lists and checks targets; tables for people, --json for scripts', async () => {
    const added = await run(['targets', 'add', `${lab.url}/v1`, '--name', 'Penny', '--model', 'penny-lab', '--canary', lab.canaries.system, '--header', 'X-Team: red', '--check']);
    expect(added.err).toBe('');
    expect(added.code).toBe(EXIT.passed);
    expect(added.out).toMatch(/^target [0-9a-f-]{36} registered: Penny/);
    expect(added.out).toContain('ok: ');

    const listed = await run(['targets', 'list']);
    expect(listed.out.split('\n')[0]).toMatch(/^id\s+name\s+mode\s+format\s+url\s+created$/);
    expect(listed.out).toContain(`Penny`);
    const json = JSON.parse((await run(['targets', 'list', '--json'])).out);
    expect(json.targets).toEqual([expect.objectContaining({ name: 'Penny', url: `${lab.url}/v1`, scan_mode: 'api', api_format: 'openai', has_api_key: false })]);

    const checked = await run(['targets', 'check', json.targets[0].id]);
    expect(checked.code).toBe(EXIT.passed);
    expect(checked.out).toMatch(/^ok: /);
  });

  it('gates every target of gauntlet.yaml with ci --config: found by name or registered, reports by extension', async () => {
    writeFileSync(join(dir, 'gauntlet.yaml'), [
      'profile: quick',
      'fail_under: 0',
      'reports: ["ci/{target}.sarif", "ci/{target}.json"]',
      'targets:',
      '  - name: Penny',
      `    url: ${lab.url}/v1`,
      '  - name: Penny again',
      `    url: ${lab.url}/v1`,
      '    model: penny-lab',
      '',
    ].join('\n'));
    const r = await run(['ci', '--config', '--poll-interval', '0.2']);
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT.passed);
    expect(r.out).toMatch(/^gauntlet: registered target Penny again \(/m);
    expect(r.out).not.toMatch(/registered target Penny \(/);
    expect(r.out).toContain('gauntlet: 2 targets, exit code 0');
    expect(JSON.parse(readFileSync(join(dir, 'ci/penny-again.sarif'), 'utf8')).version).toBe('2.1.0');
    expect(JSON.parse(readFileSync(join(dir, 'ci/penny.json'), 'utf8')).target.name).toBe('Penny');
    const scans = JSON.parse((await run(['scans', 'list', '--json'])).out).scans;
    expect(scans.slice(0, 2).map((s: any) => [s.target_name, s.profile, s.origin])).toEqual([['Penny again', 'quick', 'ci'], ['Penny', 'quick', 'ci']]);
  });

  it('exits 1 when a target does not answer, 2 when the service refuses the key', async () => {
    const dead = await run(['targets', 'add', 'http://127.0.0.1:9/v1', '--name', 'Nobody', '--check']);
    expect(dead.code).toBe(EXIT.belowThreshold);
    expect(dead.out).toContain('NOT OK');
    const refused = await run(['targets', 'list'], { GAUNTLET_API_KEY: 'gk_wrong_0000000000' });
    expect(refused.code).toBe(EXIT.error);
    expect(refused.err).toMatch(/refused the API key/);
    const bad = await run(['targets', 'add', 'not a url', '--name', 'x']);
    expect(bad.code).toBe(EXIT.error);
    expect(bad.err).toMatch(/url/);
  });

  it('lists, shows, compares and downloads scans', async () => {
    const [penny] = JSON.parse((await run(['targets', 'list', '--json'])).out).targets.filter((t: any) => t.name === 'Penny');
    const first = await scanned(penny.id);
    const second = await scanned(penny.id);

    const listed = await run(['scans', 'list', '--target', penny.id]);
    expect(listed.code).toBe(EXIT.passed);
    const lines = listed.out.split('\n');
    expect(lines[0]).toMatch(/^id\s+target\s+status\s+profile\s+score/);
    expect(lines[2]).toContain(second);
    expect(lines[3]).toContain(first);
    expect(JSON.parse((await run(['scans', 'list', '--json', '--limit', '1'])).out).scans).toHaveLength(1);

    const shown = await run(['scans', 'show', second]);
    expect(shown.out).toMatch(new RegExp(`^scan ${second} of Penny: completed`));
    expect(shown.out).toMatch(/grade [A-F][+-]? \(\d+\/100\)/);
    expect(shown.out).toMatch(/critical\s+LLM\d\d:2025/);

    const diff = await run(['scans', 'diff', second]);
    expect(diff.out).toContain(`compared with scan ${first}`);
    expect(JSON.parse((await run(['scans', 'diff', second, '--json'])).out)).toMatchObject({ base_scan_id: first });

    const report = await run(['scans', 'report', second, '-o', 'out/report.json']);
    expect(report.code).toBe(EXIT.passed);
    expect(JSON.parse(readFileSync(join(dir, 'out/report.json'), 'utf8')).scan.id).toBe(second);
    // the free plan has json only: the service's refusal, in one line
    const pdf = await run(['scans', 'report', second, '-o', 'out/report.pdf']);
    expect(pdf.code).toBe(EXIT.error);
    expect(pdf.err).toMatch(/HTTP 403/);
  });
});
