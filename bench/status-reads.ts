// GET /api/scans/{id}/status on the running service (embedded engines) beside a bare node:http
// server answering the same JSON, each in its own process, loaded by autocannon from this one.
// Default settings (LOG_LEVEL info) except the per-IP limit, off unless a limit is given: at 120 a
// minute from the one benchmarking IP it would measure the limiter's 429s.
//
//   npm run build && node dist/bench/status-reads.js [seconds=10] [connections=32] [limit=0]
//
// A limit above 0 turns the per-IP limit on at that many requests a minute (e.g. 100000000, never
// reached): every request then spends the shared budget (DATA_DIR/limits.db), as in production.
//
// Three alternating runs per server after a warm-up of each; the median run of each is compared.
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 32);
const rateLimit = Number(process.argv[4] ?? 0);
const ROUNDS = 3;
const dist = join(__dirname, '..');

/** starts a process and resolves once `ready` answers 200 (bounded) */
async function launch(args: string[], env: Record<string, string>, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`${args[0]} exited with ${child.exitCode}`);
    if (await fetch(ready).then((r) => r.ok, () => false)) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${ready} did not answer`);
}

async function json(url: string, init: RequestInit = {}) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  return res.json() as Promise<any>;
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-bench-'));
  const port = 23000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const service = await launch([join(dist, 'apps/gauntlet/src/main.js'), 'api,projector'], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: String(rateLimit), OUTBOUND_ALLOW_PRIVATE: 'true' }, `${base}/healthz`);
  try {
    const email = 'bench@example.com';
    const password = 'bench-password-123';
    await json(`${base}/api/auth/register`, { method: 'POST', body: JSON.stringify({ email, password }) });
    const { access_token } = await json(`${base}/api/auth/login`, { method: 'POST', body: JSON.stringify({ email, password }) });
    const auth = { authorization: `Bearer ${access_token}` };
    const target = await json(`${base}/api/targets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'bench', url: 'http://127.0.0.1:9/v1/chat/completions', scan_mode: 'api', api_format: 'openai' }) });
    const scan = await json(`${base}/api/scans`, { method: 'POST', headers: auth, body: JSON.stringify({ target_id: target.id }) });
    const body = JSON.stringify(await json(`${base}/api/scans/${scan.id}/status`, { headers: auth }));

    const barePort = port + 1000;
    const bare = await launch(
      ['-e', `require('http').createServer((q, s) => { s.setHeader('content-type', 'application/json; charset=utf-8'); s.end(${JSON.stringify(body)}); }).listen(${barePort}, '127.0.0.1')`],
      {},
      `http://127.0.0.1:${barePort}/`,
    );
    try {
      await load(`${base}/api/scans/${scan.id}/status`, auth); // warm-up
      await load(`http://127.0.0.1:${barePort}/`, {});
      // alternate the two servers and keep each one's median run, so drifting machine load hits both alike
      const runs: { gauntlet: Awaited<ReturnType<typeof load>>; plain: Awaited<ReturnType<typeof load>> }[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        runs.push({ gauntlet: await load(`${base}/api/scans/${scan.id}/status`, auth), plain: await load(`http://127.0.0.1:${barePort}/`, {}) });
      }
      const median = <T extends { rps: number }>(xs: T[]) => [...xs].sort((a, b) => a.rps - b.rps)[Math.floor(xs.length / 2)];
      const gauntlet = median(runs.map((r) => r.gauntlet));
      const plain = median(runs.map((r) => r.plain));
      console.log(`command: node dist/bench/status-reads.js ${seconds} ${connections}${rateLimit ? ` ${rateLimit}` : ''}`);
      const limitNote = rateLimit ? `the per-IP limit on (${rateLimit}/min, spent in the shared budget store)` : 'no rate limit';
      console.log(`GET /api/scans/{id}/status (bearer token, account and scan looked up per request, embedded engines, default settings but ${limitNote}), ${connections} connections, median of ${ROUNDS} alternating runs of ${seconds} s`);
      console.log(`  gauntlet   ${gauntlet.rps.toFixed(0).padStart(7)} req/s  p50 ${gauntlet.p50} ms  p99 ${gauntlet.p99} ms  errors ${gauntlet.errors}  (runs: ${runs.map((r) => r.gauntlet.rps.toFixed(0)).join(', ')})`);
      console.log(`  bare http  ${plain.rps.toFixed(0).padStart(7)} req/s  p50 ${plain.p50} ms  p99 ${plain.p99} ms  errors ${plain.errors}  (runs: ${runs.map((r) => r.plain.rps.toFixed(0)).join(', ')})`);
      console.log(`  ratio      ${((gauntlet.rps / plain.rps) * 100).toFixed(0)}% of the bare server's throughput (aim: 50% or more, p99 under 10 ms)`);
    } finally {
      bare.kill();
    }
  } finally {
    service.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
