/**
 * Attack depth against chatbots we did not write: three families of guarded bots, each written by
 * someone who never saw the scanner (test/support/foreign-bots, held-out-bots, third-bots: other
 * personas, other wording, other guardrail rules), scanned through the OpenAI-compatible API with
 * no canaries configured.
 *
 *   npm run build && node dist/bench/guarded-bots.js [profiles, default quick,standard] [seeds, default 1]
 *
 * For each bot and profile, one scan per seed (fixed seeds, so runs repeat) prints, summed over
 * the seeds: recall (planted OWASP categories
 * with a finding / planted), categories found beyond the planted ones, high or critical findings
 * on the bots without weaknesses (every one of them false), requests the bot received and the
 * wall time. A leaked system prompt holding credentials is also an LLM02 finding by design, so
 * "beyond" names it where LLM07 is planted.
 */
import { performance } from 'node:perf_hooks';
import { Profile, Vulnerability } from '@gauntlet/domain';
import { createChatDriver, runScan } from '@gauntlet/scanner';
import { FOREIGN_BOT_KINDS, startForeignBot } from '../test/support/foreign-bots';
import { HELD_OUT_BOT_KINDS, startHeldOutBot } from '../test/support/held-out-bots';
import { THIRD_BOT_KINDS, startThirdBot } from '../test/support/third-bots';

interface Bot {
  url: string;
  planted: readonly string[];
  requests(): number;
  close(): Promise<void>;
}

const FAMILIES: { family: string; kinds: readonly string[]; start: (kind: string) => Promise<Bot> }[] = [
  { family: 'foreign', kinds: FOREIGN_BOT_KINDS, start: (k) => startForeignBot(k as (typeof FOREIGN_BOT_KINDS)[number]) },
  { family: 'held-out', kinds: HELD_OUT_BOT_KINDS, start: (k) => startHeldOutBot(k as (typeof HELD_OUT_BOT_KINDS)[number]) },
  { family: 'third', kinds: THIRD_BOT_KINDS, start: (k) => startThirdBot(k as (typeof THIRD_BOT_KINDS)[number]) },
];
const profiles = (process.argv[2] ?? 'quick,standard').split(',') as Profile[];
const seeds = Array.from({ length: Number(process.argv[3] ?? 1) }, (_, i) => (i === 0 ? 'guarded-bots-bench' : `guarded-bots-bench-${i}`));

async function scanOnce(bot: Bot, name: string, profile: Profile, seed: string) {
  const target = { id: 't', name, url: `${bot.url}/v1/chat/completions`, scan_mode: 'api' as const, api_format: 'openai' as const, api_key: null, model: 'm', canaries: [], browser: null, http: null, max_requests_per_second: null };
  const driver = createChatDriver(target, { allowPrivate: true, timeoutMs: 10_000 });
  const vulnerabilities: Vulnerability[] = [];
  const started = performance.now();
  try {
    const outcome = await runScan({
      scanId: `bench-${name}-${profile}`, seed, profile, driver, signal: new AbortController().signal, now: () => new Date(), target,
      sink: { enterPhase: async () => {}, recordAttempt: async () => {}, recordVulnerability: async (v) => void vulnerabilities.push(v) },
    });
    if (outcome.kind !== 'completed') throw new Error(`${name}/${profile}: scan ended ${JSON.stringify(outcome)}`);
  } finally {
    await driver.close();
  }
  const found = new Set<string>(vulnerabilities.map((v) => v.category));
  return {
    found: bot.planted.filter((c) => found.has(c)).length,
    missed: bot.planted.filter((c) => !found.has(c)),
    beyond: [...found].filter((c) => !bot.planted.includes(c)),
    serious: vulnerabilities.filter((v) => v.severity === 'critical' || v.severity === 'high').length,
    seconds: (performance.now() - started) / 1000,
  };
}

/** "LLM06 ×2 LLM09": each category once, with how many seeds it came up in when more than one */
const tally = (categories: string[]) => {
  const counts = new Map<string, number>();
  for (const c of categories) counts.set(c.slice(0, 5), (counts.get(c.slice(0, 5)) ?? 0) + 1);
  return [...counts].sort().map(([c, n]) => (n > 1 ? `${c} ×${n}` : c)).join(' ');
};

async function main(): Promise<void> {
  const rows: string[][] = [['family', 'bot', 'profile', 'recall', 'missed', 'beyond planted', 'clean bot', 'requests/scan', 'wall s/scan']];
  for (const { family, kinds, start } of FAMILIES) {
    for (const kind of kinds) {
      for (const profile of profiles) {
        const runs = [];
        let requests = 0;
        let planted = 0;
        for (const seed of seeds) {
          const bot = await start(kind);
          try {
            runs.push(await scanOnce(bot, `${family}-${kind}`, profile, seed));
            requests += bot.requests();
            planted += bot.planted.length;
          } finally {
            await bot.close();
          }
        }
        const found = runs.reduce((n, r) => n + r.found, 0);
        rows.push([
          family, kind, profile, planted ? `${found}/${planted}` : '-', tally(runs.flatMap((r) => r.missed)), tally(runs.flatMap((r) => r.beyond)),
          planted ? '' : `${runs.reduce((n, r) => n + r.serious, 0)} high+`, String(Math.round(requests / seeds.length)), (runs.reduce((t, r) => t + r.seconds, 0) / seeds.length).toFixed(1),
        ]);
      }
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(`node dist/bench/guarded-bots.js ${profiles.join(',')} ${seeds.length}`);
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
