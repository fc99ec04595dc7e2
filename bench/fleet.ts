/**
 * A fleet of scans on the distributed mode, scaled out: N scans of lab targets answering in
 * 200-500 ms behind a per-target rate limit, with 1, 2 and 4 scanner worker processes on Kafka
 * and FerretDB (events in a SQLite file the roles share). Prints scans per hour, p50/p95 scan time
 * (queued to finished, and running time alone), requests per second across the targets, and each
 * run's ratio to one worker.
 *
 *   npm run build && set -a && . /tmp/kafka.env && . /tmp/ferret.env && set +a && \
 *     node dist/bench/fleet.js [--scans 40] [--profile standard] [--workers 1,2,4] [--targets 8] \
 *       [--rate-limit 5] [--concurrency 4] [--min-latency 200] [--max-latency 500]
 *
 * Each target is a lab process of its own with a fixed latency spread over [min, max] and a token
 * bucket of --rate-limit requests per second; scans are spread round-robin over the targets and all
 * requested at once. Each worker runs at most --concurrency scans at a time (SCANNER_CONCURRENCY).
 * Every run has its own Kafka namespace, database and DATA_DIR, so runs do not see each other.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const SCANS = Number(arg('scans', '40'));
const PROFILE = arg('profile', 'standard');
const WORKERS = arg('workers', '1,2,4').split(',').map(Number);
const TARGETS = Number(arg('targets', '8'));
const RATE_LIMIT = Number(arg('rate-limit', '5'));
const CONCURRENCY = Number(arg('concurrency', '4'));
const MIN_LATENCY = Number(arg('min-latency', '200'));
const MAX_LATENCY = Number(arg('max-latency', '500'));
/** a run that has not finished by then is reported as such (bounded: the bench always ends) */
const RUN_DEADLINE_MS = Number(arg('deadline-s', '1800')) * 1000;

const brokers = process.env.KAFKA_BROKERS;
const mongoUrl = process.env.MONGODB_URL ?? process.env.FERRETDB_URL;
if (!brokers || !mongoUrl) {
  console.error('bench/fleet needs KAFKA_BROKERS and FERRETDB_URL (or MONGODB_URL): source /tmp/kafka.env and /tmp/ferret.env, or start infra/');
  process.exit(2);
}

const children = new Set<ChildProcess>();

/** a child process that is ready when `ready` appears in its output; killed on exit of the bench */
function spawnReady(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 60_000): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not start:\n${out.slice(-2000)}`));
    }, timeoutMs);
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.length > 200_000) out = out.slice(-100_000);
      const m = out.match(ready);
      if (m) {
        clearTimeout(timer);
        // keep draining so a chatty process never blocks on a full pipe
        child.stdout!.removeListener('data', onData);
        child.stderr!.removeListener('data', onData);
        child.stdout!.resume();
        child.stderr!.resume();
        resolve({ child, match: m });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${out.slice(-2000)}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((r) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => (clearTimeout(timer), r()));
    child.kill('SIGTERM');
  });
}

const dist = (p: string) => join(__dirname, '..', p);

interface Lab {
  url: string;
  latency: number;
  child: ChildProcess;
  answered(): Promise<number>;
}

async function startLabs(): Promise<Lab[]> {
  return Promise.all(
    Array.from({ length: TARGETS }, async (_, i) => {
      const latency = Math.round(MIN_LATENCY + ((MAX_LATENCY - MIN_LATENCY) * i) / Math.max(1, TARGETS - 1));
      const { child, match } = await spawnReady(
        [dist('apps/lab/src/main.js'), '--port', '0', '--latency-ms', String(latency), '--rate-limit', String(RATE_LIMIT)],
        {},
        /lab listening on (http:\/\/\S+)/,
      );
      const url = match[1];
      return { url, latency, child, answered: async () => ((await (await fetch(`${url}/healthz`)).json()) as { stats: { answered: number } }).stats.answered };
    }),
  );
}

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

interface RunResult {
  workers: number;
  finished: number;
  wallS: number;
  perHour: number;
  p50S: number;
  p95S: number;
  runP50S: number;
  runP95S: number;
  rps: number;
  statuses: Record<string, number>;
}

async function run(workers: number, labs: Lab[]): Promise<RunResult> {
  const id = `${workers}w${Math.random().toString(36).slice(2, 7)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-fleet-bench-'));
  const port = 21000 + Math.floor(Math.random() * 9000);
  const env: Record<string, string> = {
    DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), KAFKA_BROKERS: brokers!, MONGODB_URL: mongoUrl!, MONGODB_DATABASE: `gauntlet_bench_${id}`,
    BUS_NAMESPACE: `bench-${id}.`, KAFKA_PARTITIONS: '8', OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info',
    SCAN_QUOTA_FREE: 'unlimited', SCANNER_CONCURRENCY: String(CONCURRENCY), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  };
  const roles: ChildProcess[] = [];
  const role = async (name: string) => {
    const { child } = await spawnReady([dist('apps/gauntlet/src/main.js'), name], env, name === 'api' ? /gauntlet api listening/ : /gauntlet roles started/);
    roles.push(child);
  };
  try {
    // the api first: it writes the generated secrets into DATA_DIR that the other roles share
    await role('api');
    await Promise.all([role('projector'), role('relay'), ...Array.from({ length: workers }, () => role('scanner'))]);
    const base = `http://127.0.0.1:${port}`;
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(base + path, {
        method, headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const json = await res.json().catch(() => null);
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const email = `bench-${id}@example.com`;
    await call('POST', '/api/auth/register', { email, password: 'a-long-enough-password' });
    const token = (await call('POST', '/api/auth/login', { email, password: 'a-long-enough-password' })).access_token as string;
    const targets: string[] = [];
    for (const [i, lab] of labs.entries()) {
      targets.push((await call('POST', '/api/targets', { name: `lab ${i} (${lab.latency} ms)`, url: `${lab.url}/v1/chat/completions`, scan_mode: 'api', api_format: 'openai', tags: ['bench'] }, token)).id);
    }
    const answeredBefore = await Promise.all(labs.map((l) => l.answered()));
    const t0 = performance.now();
    const scanIds = await Promise.all(Array.from({ length: SCANS }, (_, i) => call('POST', '/api/scans', { target_id: targets[i % targets.length], profile: PROFILE }, token).then((s) => s.id as string)));
    const deadline = Date.now() + RUN_DEADLINE_MS;
    let docs: any[] = [];
    for (;;) {
      docs = (await call('GET', `/api/scans?limit=200`, undefined, token)).scans.filter((s: any) => scanIds.includes(s.id));
      if (docs.length === SCANS && docs.every((d) => ['completed', 'completed_partial', 'failed', 'cancelled'].includes(d.status))) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const wallS = (performance.now() - t0) / 1000;
    const answeredAfter = await Promise.all(labs.map((l) => l.answered()));
    const requests = answeredAfter.reduce((n, a, i) => n + a - answeredBefore[i], 0);
    const done = docs.filter((d) => d.finished_at);
    const statuses: Record<string, number> = {};
    for (const d of docs) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
    const total = done.map((d) => (Date.parse(d.finished_at) - Date.parse(d.created_at)) / 1000);
    const running = done.filter((d) => d.started_at).map((d) => (Date.parse(d.finished_at) - Date.parse(d.started_at)) / 1000);
    return {
      workers, finished: done.length, wallS, perHour: (done.length / wallS) * 3600, p50S: quantile(total, 0.5), p95S: quantile(total, 0.95),
      runP50S: quantile(running, 0.5), runP95S: quantile(running, 0.95), rps: requests / wallS, statuses,
    };
  } finally {
    for (const c of roles.reverse()) await stop(c);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`bench/fleet: ${SCANS} ${PROFILE} scans over ${TARGETS} lab targets (${MIN_LATENCY}-${MAX_LATENCY} ms, ${RATE_LIMIT} req/s each, so at most ${TARGETS * RATE_LIMIT} req/s in all); ` +
    `workers ${WORKERS.join(', ')}, ${CONCURRENCY} scans at a time per worker; Kafka ${brokers}, FerretDB ${mongoUrl}`);
  console.log(`command: node dist/bench/fleet.js ${process.argv.slice(2).join(' ')}`);
  const labs = await startLabs();
  const results: RunResult[] = [];
  try {
    for (const w of WORKERS) {
      const r = await run(w, labs);
      results.push(r);
      const one = results.find((x) => x.workers === 1);
      console.log(
        `${String(w).padStart(2)} worker(s): ${r.finished}/${SCANS} finished in ${r.wallS.toFixed(1)} s  ${r.perHour.toFixed(0).padStart(5)} scans/h  ` +
        `scan time p50 ${r.p50S.toFixed(1)} s p95 ${r.p95S.toFixed(1)} s (running p50 ${r.runP50S.toFixed(1)} s p95 ${r.runP95S.toFixed(1)} s)  ` +
        `${r.rps.toFixed(1)} req/s across targets  x${one ? (r.perHour / one.perHour).toFixed(2) : '-'} vs 1 worker  ${JSON.stringify(r.statuses)}`,
      );
    }
  } finally {
    await Promise.all(labs.map((l) => stop(l.child)));
  }
}

const cleanup = () => {
  for (const c of children) c.kill('SIGKILL');
};
process.on('SIGINT', () => (cleanup(), process.exit(130)));
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    cleanup();
    process.exit(1);
  },
);
