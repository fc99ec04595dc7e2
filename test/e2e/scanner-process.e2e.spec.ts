import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { RoleProcess, startRole } from '../support/processes';
import { eventually } from '../support/receiver';
import { removeDir, signUp } from '../support/service';

/** the service's JSON log lines */
const logLines = (service: RoleProcess): Record<string, unknown>[] =>
  service
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The `all` role as users start it judges no answer on the API's event loop: its scanner runs in a
 * child process of its own (scanning/scanner-process.ts), which ends with the service.
 */
describe('the scanner of the all role, in a process of its own', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-scanner-process-'));
  const port = 29500 + Math.floor(Math.random() * 400);
  const env: Record<string, string> = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
  const base = `http://127.0.0.1:${port}`;
  let lab: RunningLab;
  let service: RoleProcess;

  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable' });
    // the scanner process has started when the roles say so
    service = await startRole('all', env, 'gauntlet roles started');
  }, 60_000);
  afterAll(async () => {
    await service.kill();
    await lab.close();
    removeDir(dataDir);
  });

  it('runs a scan in the child process, and the child ends when the service does', async () => {
    const started = logLines(service).find((l) => l.msg === 'scanner process started');
    const child = Number(started?.pid);
    expect(child).toBeGreaterThan(0);
    expect(child).not.toBe(service.child.pid);
    expect(alive(child)).toBe(true);

    const { api } = await signUp(base);
    const target = (await api.post('/api/targets', { name: 'lab', url: `${lab.url}/v1/chat/completions`, scan_mode: 'api', api_format: 'openai' })).body;
    const scan = (await api.post('/api/scans', { target_id: target.id, profile: 'quick' })).body;
    const ended = await eventually(async () => {
      const s = (await api.get(`/api/scans/${scan.id}/status`)).body;
      return ['pending', 'running'].includes(s.status) ? undefined : s;
    }, 150_000, 250);
    expect(ended.status).toBe('completed');
    // the scan's own log lines come from the scanner process
    const scanLines = logLines(service).filter((l) => l.scan_id === scan.id && (l.msg === 'scan started' || l.msg === 'scan ended'));
    expect(scanLines.map((l) => [l.msg, l.process])).toEqual([
      ['scan started', 'scanner'],
      ['scan ended', 'scanner'],
    ]);

    await service.kill('SIGTERM');
    await eventually(async () => (alive(child) ? undefined : true), 30_000, 100);
  }, 240_000);
});
