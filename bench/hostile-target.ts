/**
 * One account scans a hostile target (test/support/hostile-target.ts: every answer one long run
 * without spaces, five shapes in turn) with the quick profile while another account reads its own
 * account and /healthz every 100 ms: how long the other account waits while the scan runs, and how
 * long the scan takes. The service is the built one, started as users start it (`node
 * dist/apps/gauntlet/src/main.js all`, embedded stores in a temporary DATA_DIR).
 *
 *   npm run build && node dist/bench/hostile-target.js [characters per answer, default 200000] [seconds to give the scan, default 300]
 *
 * Aims: the other account's reads under 250 ms at p95 and never over 1 s; the scan over within 3 minutes.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quantile, Read, readEvery, startHostileTarget } from '../test/support/hostile-target';

const CHARS = Number(process.argv[2] ?? 200_000);
const GIVE_SCAN_S = Number(process.argv[3] ?? 300);
const TERMINAL = ['completed', 'completed_partial', 'failed', 'cancelled'];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** the built service, `all` roles, until it says it started */
async function startService(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(__dirname, '../apps/gauntlet/src/main.js'), 'all'], {
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the service did not answer within 60 s')), 60_000);
    const poll = setInterval(() => {
      void fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok && (clearInterval(poll), clearTimeout(timer), resolve()),
        () => undefined,
      );
    }, 200);
    child.once('exit', (code) => (clearInterval(poll), clearTimeout(timer), reject(new Error(`the service exited (${code})`))));
  });
  child.stdout!.resume();
  return child;
}

async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function account(base: string, name: string): Promise<string> {
  const email = `${name}-${Date.now()}@example.com`;
  await call(base, 'POST', '/api/auth/register', undefined, { email, password: 'a-long-enough-password' });
  return (await call(base, 'POST', '/api/auth/login', undefined, { email, password: 'a-long-enough-password' })).access_token;
}

const ms = (v: number) => `${Math.round(v)} ms`;
function summary(label: string, reads: readonly Read[]): string {
  const times = reads.map((r) => r.ms);
  const failed = reads.filter((r) => r.status !== 200).length;
  return `${label.padEnd(13)} ${String(reads.length).padStart(5)} reads  p50 ${ms(quantile(times, 0.5)).padStart(7)}  p95 ${ms(quantile(times, 0.95)).padStart(7)}  p99 ${ms(quantile(times, 0.99)).padStart(7)}  max ${ms(Math.max(...times)).padStart(7)}  over 1 s ${times.filter((t) => t > 1000).length}  failed ${failed}`;
}

async function main() {
  const target = await startHostileTarget(CHARS);
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-hostile-'));
  const port = await freePort();
  const service = await startService(port, dataDir);
  const base = `http://127.0.0.1:${port}`;
  try {
    const [scanner, reader] = [await account(base, 'scanner'), await account(base, 'reader')];
    const created = await call(base, 'POST', '/api/targets', scanner, { name: 'hostile', url: `${target.url}/v1`, scan_mode: 'api', api_format: 'openai' });
    const reads = readEvery(base, reader, 100);
    const started = Date.now();
    const scan = await call(base, 'POST', '/api/scans', scanner, { target_id: created.id, profile: 'quick' });
    let status = { status: 'pending' } as { status: string; progress?: number; reason?: string };
    while (!TERMINAL.includes(status.status) && Date.now() - started < GIVE_SCAN_S * 1000) {
      await new Promise((r) => setTimeout(r, 1000));
      status = await call(base, 'GET', `/api/scans/${scan.id}/status`, scanner).catch(() => status);
    }
    const seconds = (Date.now() - started) / 1000;
    const all = await reads.stop();
    console.log(`hostile target: node dist/bench/hostile-target.js ${CHARS} ${GIVE_SCAN_S} (answers of ${CHARS} characters, five shapes; quick profile)`);
    console.log(`scan: ${TERMINAL.includes(status.status) ? `${status.status} after ${seconds.toFixed(1)} s` : `still ${status.status} (${status.progress ?? 0}%) after ${seconds.toFixed(0)} s`}${status.reason ? ` (${status.reason})` : ''}; ${target.answered()} answers sent`);
    console.log("the other account's reads while it ran (one every 100 ms):");
    console.log(summary('GET /api/account', all.filter((r) => r.path === '/api/account')));
    console.log(summary('GET /healthz', all.filter((r) => r.path === '/healthz')));
    console.log(summary('all', all));
  } finally {
    // a service whose event loop a scan holds does not hear SIGTERM: killed after a while
    const exited = new Promise((r) => service.once('exit', r));
    service.kill('SIGTERM');
    const kill = setTimeout(() => service.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(kill);
    await target.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
