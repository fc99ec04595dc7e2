import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { RoleProcess, startRole } from '../support/processes';
import { eventually } from '../support/receiver';
import { removeDir, signUp } from '../support/service';

/**
 * A scanner killed -9 mid-scan: its lease runs out and the scan ends completed_partial with the
 * findings recorded before the crash, scored; nothing found is lost and nothing hangs. In the `all`
 * role the scanner is the service's child process (scanning/scanner-process.ts): it is what is
 * killed, and the service starts another, whose reaper ends the scan.
 */
describe('a scanner dies mid-scan', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-reap-'));
  const port = 28000 + Math.floor(Math.random() * 1500);
  const env: Record<string, string> = {
    PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, OUTBOUND_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'json', SCAN_LEASE_MS: '1500',
  };
  const base = `http://127.0.0.1:${port}`;
  let lab: RunningLab;
  let service: RoleProcess;

  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable', latencyMs: 300 });
    // the scanner process has started when the roles say so
    service = await startRole('all', env, 'gauntlet roles started');
  }, 60_000);
  afterAll(async () => {
    await service.kill();
    await lab.close();
    removeDir(dataDir);
  });

  it('ends the scan completed_partial with what was found before the crash', async () => {
    const { api } = await signUp(base);
    const target = (await api.post('/api/targets', { name: 'slow lab', url: `${lab.url}/v1/chat/completions`, scan_mode: 'api', api_format: 'openai' })).body;
    const scan = (await api.post('/api/scans', { target_id: target.id, profile: 'standard' })).body;
    // killed once some probes are recorded (a busy machine may take a while to get there)
    const before = await eventually(async () => {
      const s = (await api.get(`/api/scans/${scan.id}`)).body;
      if (!['pending', 'running'].includes(s.status)) throw new Error(`the scan ended ${s.status} before the crash`);
      return s.status === 'running' && s.probes_run >= 5 ? s : undefined;
    }, 120_000, 100);
    const scanner = Number(service.output().split('\n').filter((l) => l.includes('scanner process started')).map((l) => JSON.parse(l).pid).pop());
    expect(scanner).not.toBe(service.child.pid);
    process.kill(scanner, 'SIGKILL');

    const after = await eventually(async () => {
      const s = (await api.get(`/api/scans/${scan.id}`)).body;
      return s.status !== 'running' ? s : undefined;
    }, 30_000, 200);
    expect(after.status).toBe('completed_partial');
    expect(after.reason).toMatch(/lease expired/);
    expect(after.progress).toBeGreaterThanOrEqual(before.progress);
    expect(after.probes_run).toBeGreaterThan(0);
    const score = await api.get(`/api/scans/${scan.id}/score`);
    expect(score.status).toBe(200);
    expect(score.body.overall_score).toEqual(expect.any(Number));
  }, 240_000);
});
