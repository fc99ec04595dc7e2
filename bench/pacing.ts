/**
 * Pacing against a rate-limited target: a standard scan of the lab answering in 200 ms behind a
 * limit of 10 requests per second, its wall time beside the physical limit (requests the lab
 * answered ÷ the allowed rate). The scanner is not told the limit: it learns it from the 429s
 * (rate-controller.ts, concurrency-controller.ts). Aim: within 10 % of the limit.
 *
 *   npm run build && node dist/bench/pacing.js [latency ms, default 200] [limit per second, default 10] [profile, default standard]
 *
 * The lab runs in its own process, as a target would, once with a strict limit (requests spaced
 * 1/rate apart, no burst) and once with a one-second burst (the bucket holds `limit` tokens),
 * then once more with the limit given as max_requests_per_second (nothing to learn) for scale.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { concurrencyFor, createChatDriver, runScan } from '@gauntlet/scanner';
import type { Profile } from '@gauntlet/domain';

const LATENCY_MS = Number(process.argv[2] ?? 200);
const LIMIT = Number(process.argv[3] ?? 10);
const PROFILE = (process.argv[4] ?? 'standard') as Profile;

interface Lab {
  url: string;
  child: ChildProcess;
  stats(): Promise<{ answered: number; limited: number }>;
}

function startLab(burst: number): Promise<Lab> {
  const child = spawn(process.execPath, [join(__dirname, '../apps/lab/src/main.js'), '--port', '0', '--latency-ms', String(LATENCY_MS), '--rate-limit', String(LIMIT), '--rate-burst', String(burst)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const url = out.match(/lab listening on (http:\/\/\S+)/)?.[1];
      if (url) {
        child.stdout!.removeAllListeners('data');
        resolve({ url, child, stats: async () => ((await (await fetch(`${url}/healthz`)).json()) as { stats: { answered: number; limited: number } }).stats });
      }
    });
    child.once('exit', (code) => reject(new Error(`the lab exited (${code}): ${out}`)));
  });
}

async function scan(lab: Lab, ceiling: number | null) {
  const target = {
    id: 't', name: 'lab', url: `${lab.url}/v1`, scan_mode: 'api' as const, api_format: 'openai' as const, api_key: null, model: 'penny-lab', canaries: [],
    browser: null, http: null, max_requests_per_second: ceiling,
  };
  const driver = createChatDriver(target, { allowPrivate: true, concurrency: concurrencyFor(PROFILE) });
  const before = await lab.stats();
  const started = performance.now();
  const outcome = await runScan({
    scanId: 'bench', seed: 'bench-seed', profile: PROFILE, driver, target, signal: new AbortController().signal, now: () => new Date(),
    sink: { enterPhase: async () => {}, recordAttempt: async () => {}, recordVulnerability: async () => {} },
  });
  const seconds = (performance.now() - started) / 1000;
  await driver.close();
  if (outcome.kind !== 'completed') throw new Error(`scan ended ${JSON.stringify(outcome)}`);
  const after = await lab.stats();
  const answered = after.answered - before.answered;
  const limited = after.limited - before.limited;
  // the last answer still takes its latency after the last slot
  const physical = answered / LIMIT;
  return { seconds, answered, limited, physical, over: seconds / physical - 1 };
}

async function main() {
  console.log(`node dist/bench/pacing.js ${LATENCY_MS} ${LIMIT} ${PROFILE}`);
  console.log(`lab: ${LATENCY_MS} ms per answer, ${LIMIT} requests/s; a ${PROFILE} scan, the limit not told to the scanner unless said\n`);
  const rows: string[][] = [['limit shape', 'told', 'answered', '429s', 'wall s', 'limit s', 'over the limit']];
  for (const [burst, ceiling] of [[1, null], [LIMIT, null], [1, LIMIT]] as const) {
    const lab = await startLab(burst);
    try {
      const r = await scan(lab, ceiling);
      rows.push([burst === 1 ? 'strict (no burst)' : `burst of ${burst}`, ceiling ? `max_requests_per_second ${ceiling}` : 'no', String(r.answered), String(r.limited), r.seconds.toFixed(1), r.physical.toFixed(1), `${(r.over * 100).toFixed(1)} %`]);
    } finally {
      lab.child.kill();
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
  console.log('\nlimit s = requests answered ÷ allowed rate; over the limit = wall ÷ limit − 1 (aim: under 10 %)');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
