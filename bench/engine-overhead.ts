/**
 * Scan-engine overhead: probes per second for a standard scan against the lab (no added
 * latency), beside a bare loop of the same HTTP conversations at the same concurrency.
 *
 *   npm run build && node dist/bench/engine-overhead.js [rounds] [lab latency ms, default 0]
 *
 * The engine run records every conversation it opens; the bare loop replays exactly those
 * messages through the same minimal client, so the difference is what the engine adds
 * (rendering, converters, detectors, scheduling, sink calls). The lab runs in its own process,
 * as a target would. Aim: under 10%. Each figure is the median of several rounds after a few
 * warm-up rounds.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChatDriver, PROFILE_PLANS, runScan } from '@gauntlet/scanner';
import { labChatDriver } from '../apps/lab/src/lab-client';

const ROUNDS = Number(process.argv[2] ?? 20);
const LATENCY_MS = Number(process.argv[3] ?? 0);
/** rounds run first and not counted, until the JIT has compiled the hot paths */
const WARM_UP = 5;
const PROFILE = 'standard' as const;

function recording(driver: ChatDriver, conversations: string[][]): ChatDriver {
  return {
    async openConversation() {
      const conv = await driver.openConversation();
      const sent: string[] = [];
      conversations.push(sent);
      return {
        send: (message, options) => {
          sent.push(message);
          return conv.send(message, options);
        },
        close: () => conv.close(),
      };
    },
    close: () => driver.close(),
  };
}

async function engineRound(url: string, canaries: string[]) {
  const conversations: string[][] = [];
  const phaseStarts: number[] = [];
  let attempts = 0;
  const started = performance.now();
  const outcome = await runScan({
    scanId: 'bench', seed: 'bench-seed', profile: PROFILE, driver: recording(labChatDriver(url), conversations), signal: new AbortController().signal, now: () => new Date(),
    target: { id: 't', name: 'lab', url, scan_mode: 'api', api_format: 'openai', api_key: null, model: null, canaries, browser: null, http: null, max_requests_per_second: null },
    sink: { enterPhase: async (phase) => void (phase === 'probe' || phase === 'amplify' ? phaseStarts.push(conversations.length) : undefined), recordAttempt: async () => void attempts++, recordVulnerability: async () => {} },
  });
  if (outcome.kind !== 'completed') throw new Error(`scan ended ${JSON.stringify(outcome)}`);
  return { seconds: (performance.now() - started) / 1000, attempts, conversations, phaseStarts };
}

/** Replays the conversations `concurrency` at a time; with `barriers`, each batch waits for the one before (as phases do). */
async function bareRound(url: string, conversations: string[][], concurrency: number, barriers: number[] = [], cancellable = false) {
  const driver = labChatDriver(url);
  const started = performance.now();
  const cuts = [0, ...barriers, conversations.length];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const batch = conversations.slice(cuts[i], cuts[i + 1]);
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const messages = batch[next++];
        const conv = await driver.openConversation();
        const signal = cancellable ? new AbortController().signal : undefined;
        for (const m of messages) await conv.send(m, { signal });
        await conv.close();
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
  return { seconds: (performance.now() - started) / 1000, requests: driver.requests() };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Starts the built lab (dist/apps/lab/src/main.js) on a free port and reads its address and canaries. */
function startLabProcess(): Promise<{ url: string; canaries: string[]; child: ChildProcess }> {
  const main = join(__dirname, '..', 'apps', 'lab', 'src', 'main.js');
  const child = spawn(process.execPath, [main, '--port', '0', '--mode', 'vulnerable', '--latency-ms', String(LATENCY_MS)], {
    env: { ...process.env, LAB_STREAM_DELAY_MS: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`lab did not start: ${out}`)), 10_000);
    child.once('exit', (code) => reject(new Error(`lab exited with ${code}: ${out}`)));
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const url = out.match(/listening on (http:\/\/\S+)/)?.[1];
      const canaries = out.match(/canaries to register on the target: (\S+), (\S+)\n/);
      if (url && canaries) {
        clearTimeout(timer);
        resolve({ url, canaries: [canaries[1], canaries[2]], child });
      }
    });
  });
}

async function main() {
  const started = await startLabProcess();
  const lab = { url: started.url, close: async () => void started.child.kill('SIGTERM') };
  const canaries = started.canaries;
  const concurrency = PROFILE_PLANS[PROFILE].concurrency;
  try {
    const engineRates: number[] = [];
    const bareRates: number[] = [];
    const overheads: number[] = [];
    const phasedRates: number[] = [];
    const cancellableOverheads: number[] = [];
    let attempts = 0;
    let requests = 0;
    for (let round = 0; round < WARM_UP + ROUNDS; round++) {
      // alternate which loop goes first, so drifting machine load hits both alike
      let e = round % 2 ? undefined : await engineRound(lab.url, canaries);
      const conversations = e?.conversations ?? (await engineRound(lab.url, canaries)).conversations;
      const b = await bareRound(lab.url, conversations, concurrency);
      e ??= await engineRound(lab.url, canaries);
      const phased = await bareRound(lab.url, e.conversations, concurrency, e.phaseStarts);
      attempts = e.attempts;
      requests = b.requests;
      if (round < WARM_UP) continue;
      const engineRate = e.conversations.length / e.seconds;
      const bareRate = conversations.length / b.seconds;
      engineRates.push(engineRate);
      bareRates.push(bareRate);
      overheads.push(((bareRate - engineRate) / bareRate) * 100);
      phasedRates.push(e.conversations.length / phased.seconds);
      const cancellable = await bareRound(lab.url, e.conversations, concurrency, [], true);
      cancellableOverheads.push(((e.conversations.length / cancellable.seconds - engineRate) / (e.conversations.length / cancellable.seconds)) * 100);
    }
    const engine = median(engineRates);
    const bare = median(bareRates);
    const overhead = median(overheads);
    console.log(`engine overhead: ${PROFILE} scan against the lab (all weaknesses on, ${LATENCY_MS ? `${LATENCY_MS} ms` : 'no'} added latency), concurrency ${concurrency}`);
    console.log(`node ${process.version}, ${cpus().length} cpus, median of ${ROUNDS} rounds after ${WARM_UP} warm-up rounds`);
    console.log(`per round: ${attempts} attempts recorded (recon + probes + amplify), ${requests} HTTP requests`);
    console.log(`engine     ${engine.toFixed(1)} probes/s`);
    console.log(`bare loop  ${bare.toFixed(1)} probes/s (same conversations, same client, same concurrency)`);
    console.log(`phased bare loop  ${median(phasedRates).toFixed(1)} probes/s (the same, waiting between recon, probe and amplify as the engine does)`);
    console.log(`overhead   ${overhead.toFixed(1)}% (median of per-round paired overheads; aim: under 10%)`);
    console.log(`overhead   ${median(cancellableOverheads).toFixed(1)}% against a bare loop whose requests are cancellable too (an AbortSignal per conversation, as the engine passes)`);
  } finally {
    await lab.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
