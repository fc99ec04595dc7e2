/**
 * Plan accuracy: how well a scan's plan, made before its first request, says what the scan then
 * sends. Every target sits behind a proxy that counts the requests reaching it; for each target and
 * profile one scan runs in-process through the real driver, and its plan (made cold: nothing known
 * of the target) is compared with the count.
 *
 *   npm run build && node dist/bench/plan-accuracy.js [profiles, default quick,standard] [--real-model[=penny,nora,...]] [--twice]
 *
 * Targets: the scripted lab in each guard mode, the three families of guarded bots written apart
 * from the scanner (test/support/foreign-bots, held-out-bots, third-bots), a target that refuses
 * everything, and with --real-model the lab on SmolLM2 as each persona named (quick profile only:
 * the model answers one request at a time). Printed per scan: the plan's requests min..max and
 * likely, the requests counted at the proxy, whether they are inside min..max, the likely figure's
 * error, tokens sent and received against the plan's likely; then, per profile, how often the count
 * is inside the range and the likely figure's mean and median error. With --twice each target is
 * scanned a second time and planned knowing the first (what its previous scan spent): the likely
 * figure's error then.
 */
import { performance } from 'node:perf_hooks';
import { Profile, RequestPlan, Usage } from '@gauntlet/domain';
import { agentToolsToPlan, createChatDriver, planScan, runScan, SpendMeter } from '@gauntlet/scanner';
import { parseDefenses } from '../apps/lab/src/guardrails';
import { startLab } from '../apps/lab/src/lab';
import { closeSharedSmolLm2 } from '../apps/lab/src/model/smollm2';
import { startChatEndpoint } from '../test/support/chat-endpoint';
import { startCountingProxy } from '../test/support/counting-proxy';
import { FOREIGN_BOT_KINDS, startForeignBot } from '../test/support/foreign-bots';
import { HELD_OUT_BOT_KINDS, startHeldOutBot } from '../test/support/held-out-bots';
import { THIRD_BOT_KINDS, startThirdBot } from '../test/support/third-bots';
import { LAB_GUARDS } from './lab-guards';

interface Target {
  url: string;
  close(): Promise<void>;
}
interface Subject {
  name: string;
  start(): Promise<Target>;
  /** only these profiles (the real model is too slow for more than quick) */
  profiles?: Profile[];
}

const args = process.argv.slice(2);
const profiles = (args.find((a) => !a.startsWith('--')) ?? 'quick,standard').split(',') as Profile[];
const realModel = args.find((a) => a.startsWith('--real-model'));
const personas = realModel ? (realModel.split('=')[1] ?? 'penny').split(',') : [];
const twice = args.includes('--twice');


const subjects: Subject[] = [
  ...Object.entries(LAB_GUARDS).map(([name, g]) => ({
    name: `lab ${name}`,
    start: async () => startLab({ port: 0, mode: g.hardened ? 'hardened' : 'vulnerable', defenses: parseDefenses(g.defenses) }),
  })),
  ...FOREIGN_BOT_KINDS.map((k) => ({ name: `foreign ${k}`, start: () => startForeignBot(k) })),
  ...HELD_OUT_BOT_KINDS.map((k) => ({ name: `held-out ${k}`, start: () => startHeldOutBot(k) })),
  ...THIRD_BOT_KINDS.map((k) => ({ name: `third ${k}`, start: () => startThirdBot(k) })),
  { name: 'refuses everything', start: () => startChatEndpoint('refuser', async () => "I'm sorry, but I can't help with that.") },
  ...personas.map((p) => ({ name: `smollm2 ${p}`, profiles: ['quick'] as Profile[], start: async () => startLab({ port: 0, model: 'smollm2', persona: p }) })),
];

interface Run {
  plan: RequestPlan;
  received: number;
  usage: Usage;
  seconds: number;
}

async function planAndScan(upstream: string, name: string, profile: Profile, previous: Usage | null): Promise<Run> {
  const proxy = await startCountingProxy(upstream);
  const target = { id: name, name, url: `${proxy.url}/v1/chat/completions`, scan_mode: 'api' as const, api_format: 'openai' as const, api_key: null, model: 'm', canaries: [], browser: null, http: null, max_requests_per_second: null };
  const meter = new SpendMeter();
  const driver = createChatDriver(target, { allowPrivate: true, timeoutMs: 120_000, meter });
  const seed = `plan-accuracy-${name}`;
  try {
    const plan = planScan({ target, tools: await agentToolsToPlan(target), profile, seed, callbacks: null, models: { attacker: false, judge: false }, previous });
    if (proxy.posts() !== 0) throw new Error(`${name}: the plan sent ${proxy.posts()} request(s)`);
    const started = performance.now();
    const outcome = await runScan({
      scanId: `bench-${name}-${profile}`, seed, profile, driver, signal: new AbortController().signal, now: () => new Date(), target, meters: { target: meter },
      sink: { enterPhase: async () => {}, recordAttempt: async () => {}, recordVulnerability: async () => {} },
    });
    if (outcome.kind !== 'completed') throw new Error(`${name}/${profile}: the scan ended ${JSON.stringify(outcome)}`);
    return { plan, received: proxy.posts(), usage: meter.usage, seconds: (performance.now() - started) / 1000 };
  } finally {
    await driver.close();
    await proxy.close();
  }
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const signed = (x: number) => `${x >= 0 ? '+' : ''}${Math.round(x * 100)}%`;
const error = (likely: number, actual: number) => (actual > 0 ? (likely - actual) / actual : 0);
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : 0;
};

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const rows: string[][] = [['target', 'profile', 'plan min..max', 'likely', 'sent', 'inside', 'likely err', 'tok sent (likely err)', 'tok recv (likely err)', 'wall s', ...(twice ? ['likely err, 2nd scan'] : [])]];
  const summary = new Map<Profile, { inside: number; n: number; errors: number[]; sentErrors: number[]; receivedErrors: number[]; warm: number[] }>();
  for (const profile of profiles) {
    for (const subject of subjects) {
      if (subject.profiles && !subject.profiles.includes(profile)) continue;
      const target = await subject.start();
      try {
        const run = await planAndScan(target.url, subject.name, profile, null);
        const { plan, received, usage } = run;
        const inside = received >= plan.requests.min && received <= plan.requests.max;
        const e = error(plan.requests.likely, received);
        const s = summary.get(profile) ?? { inside: 0, n: 0, errors: [], sentErrors: [], receivedErrors: [], warm: [] };
        s.n++;
        if (inside) s.inside++;
        s.errors.push(e);
        s.sentErrors.push(error(plan.tokens.sent.likely, usage.tokens_sent));
        s.receivedErrors.push(error(plan.tokens.received.likely, usage.tokens_received));
        let warm: string[] = [];
        if (twice) {
          const again = await planAndScan(target.url, subject.name, profile, usage);
          const w = error(again.plan.requests.likely, again.received);
          s.warm.push(w);
          warm = [signed(w)];
        }
        summary.set(profile, s);
        rows.push([
          subject.name, profile, `${plan.requests.min}..${plan.requests.max}`, String(plan.requests.likely), String(received), inside ? 'yes' : 'NO', signed(e),
          `${usage.tokens_sent} (${signed(error(plan.tokens.sent.likely, usage.tokens_sent))})`, `${usage.tokens_received} (${signed(error(plan.tokens.received.likely, usage.tokens_received))})`,
          run.seconds.toFixed(1), ...warm,
        ]);
        process.stderr.write(`${rows[rows.length - 1].join('  ')}\n`);
      } finally {
        await target.close();
      }
    }
  }
  await closeSharedSmolLm2().catch(() => undefined);
  console.log(`node dist/bench/plan-accuracy.js ${args.join(' ')}`);
  console.log(table(rows));
  console.log('');
  for (const [profile, s] of summary) {
    const abs = (xs: number[]) => xs.map(Math.abs);
    console.log(
      `${profile}: ${s.inside}/${s.n} scans inside the plan's min..max (${pct(s.inside / s.n)}); likely requests off by ${pct(mean(abs(s.errors)))} on average (median ${pct(median(abs(s.errors)))}, ` +
        `mean signed ${signed(mean(s.errors))}); tokens sent ${pct(mean(abs(s.sentErrors)))}, received ${pct(mean(abs(s.receivedErrors)))}` +
        (twice ? `; knowing the previous scan: likely off by ${pct(mean(abs(s.warm)))}` : ''),
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
