import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { client, removeDir, signUp } from '../support/service';

const root = resolve(__dirname, '../..');

/** the built service as users run it: `node dist/apps/gauntlet/src/main.js all` */
function launch(dataDir: string, port: number): Promise<{ child: ChildProcess; url: string }> {
  // the embedded deployment: whatever engines the test command started for other suites stay out
  const { KAFKA_BROKERS, MONGODB_URL, EVENTSTORE_URL, FERRETDB_URL, ...inherited } = process.env;
  const child = spawn(process.execPath, [join(root, 'dist/apps/gauntlet/src/main.js'), 'all'], {
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '100000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveStart, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // a service that never became ready must not outlive the test
      reject(new Error(`service did not start: ${out}`));
    }, 20_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.includes('gauntlet api listening')) {
        clearTimeout(timer);
        resolveStart({ child, url: `http://127.0.0.1:${port}` });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
}

const killed = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGKILL'))));

describe('crash safety: kill -9 between a 201 and the next request', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-crash-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  afterAll(() => removeDir(dataDir));

  it('loses nothing: after restart the same reads answer the same', async () => {
    let { child, url } = await launch(dataDir, port);
    const { api, token } = await signUp(url);
    const target = await api.post('/api/targets', { name: 'crash bot', url: 'http://127.0.0.1:9/v1/chat/completions', scan_mode: 'api', api_format: 'openai' });
    expect(target.status).toBe(201);
    const scan = await api.post('/api/scans', { target_id: target.body.id });
    expect(scan.status).toBe(201);
    // cancelled so no scanner changes it between the two reads
    expect((await api.post(`/api/scans/${scan.body.id}/cancel`)).status).toBe(200);
    const before = [(await api.get('/api/targets')).body, (await api.get(`/api/scans/${scan.body.id}`)).body];
    await killed(child);

    ({ child, url } = await launch(dataDir, port));
    try {
      const again = client(url, { token });
      const after = [(await again.get('/api/targets')).body, (await again.get(`/api/scans/${scan.body.id}`)).body];
      expect(after).toEqual(before);
    } finally {
      await killed(child);
    }
  }, 60_000);

  it('stops at start with one clear line naming a bad variable', () => {
    let stderr = '';
    try {
      execFileSync(process.execPath, [join(root, 'dist/apps/gauntlet/src/main.js')], { env: { ...process.env, PORT: 'eighty', DATA_DIR: dataDir }, stdio: 'pipe' });
    } catch (err: any) {
      stderr = err.stderr.toString();
      expect(err.status).toBe(1);
    }
    expect(stderr.trim()).toBe('Invalid configuration: PORT must be a whole number, got "eighty"');
  });
});
