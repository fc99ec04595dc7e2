/**
 * Does a scan keep a model's generation slots busy? A target served with N slots (1, 2, 4) is
 * scanned up to a request cap, then the same requests are replayed by a bare loop that keeps
 * exactly N in flight: the scan's throughput (requests a second) against the loop's, and the
 * share of the scan's time the target's slots were busy. Aim: at least 0.9 of the loop at N = 2
 * and 4. Two targets:
 *
 * - scripted: a loopback OpenAI-compatible server that answers at most N requests at once (the
 *   rest wait their turn), each answer's length drawn from the question (a one-line refusal to a
 *   long recital) and its time proportional to it (2 ms a character, 40 ms fixed), usage reported;
 * - smollm2: the lab's real model (SmolLM2-135M-Instruct, infra/smollm2.sh) with `--slots N`,
 *   scanned through its OpenAI API.
 *
 *   npm run build && node dist/bench/capacity.js [targets, default scripted,smollm2] [slots, default 1,2,4] [profile, default standard] [cap scripted, default 150] [cap smollm2, default 30]
 *
 * A cap of 0 runs the whole scan (`node dist/bench/capacity.js smollm2 2 standard 0 0`: the issue's
 * check, a standard scan of the real model with two slots, against last turn's 580 s for ~300
 * requests). Besides the slots' busy share, the share of the scan's seconds with every slot busy.
 *
 * The scanner is the real API driver (createChatDriver, its pacing included), told nothing of the
 * slots; the target runs in this process. BENCH_FIXED=k makes the scan keep k conversations
 * whatever the pacing says: what the scan's own shape allows (its phases and multi-turn
 * conversations leave slots idle however many conversations are allowed), for comparison.
 * BENCH_MESSAGE_TIMEOUT_MS sets the scan's base wait per message (60 s); the wait grows past it by
 * what the target has shown (libs/scanner/src/answer-deadline.ts).
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Profile } from '@gauntlet/domain';
import { ChatDriver, concurrencyFor, Conversation, createChatDriver, runScan, ScanTarget } from '@gauntlet/scanner';
import { startLab } from '../apps/lab/src/lab';
import { closeSharedSmolLm2, LanguageModel, ModelConversation, sharedSmolLm2 } from '../apps/lab/src/model/smollm2';

const TARGETS = (process.argv[2] ?? 'scripted,smollm2').split(',');
const SLOTS = (process.argv[3] ?? '1,2,4').split(',').map(Number);
const PROFILE = (process.argv[4] ?? 'standard') as Profile;
const CAPS: Record<string, number> = { scripted: Number(process.argv[5] ?? 150), smollm2: Number(process.argv[6] ?? 30) };

/** slot-milliseconds busy: min(requests under way, slots), integrated over time; and the milliseconds every slot was busy */
class SlotClock {
  private active = 0;
  private since = performance.now();
  private busy = 0;
  private full = 0;
  constructor(readonly slots: number) {}
  private tick() {
    const now = performance.now();
    this.busy += Math.min(this.active, this.slots) * (now - this.since);
    if (this.active >= this.slots) this.full += now - this.since;
    this.since = now;
  }
  enter() {
    this.tick();
    this.active++;
  }
  leave() {
    this.tick();
    this.active--;
  }
  read(): number {
    this.tick();
    return this.busy;
  }
  allBusy(): number {
    this.tick();
    return this.full;
  }
}

interface Served {
  url: string;
  clock: SlotClock;
  close(): Promise<void>;
}

/** a string's hash, for answer lengths that depend on the question alone */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

async function scripted(slots: number): Promise<Served> {
  const clock = new SlotClock(slots);
  let running = 0;
  const waiting: Array<() => void> = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      clock.enter();
      try {
        if (running >= slots) await new Promise<void>((r) => waiting.push(r));
        else running++;
        const messages = (JSON.parse(body || '{}').messages ?? []) as { content: string }[];
        const h = hash(JSON.stringify(messages));
        // most answers short (refusals), some long (recitals): 20 to 620 characters
        const chars = 20 + Math.round(600 * ((h % 1000) / 1000) ** 2);
        await new Promise((r) => setTimeout(r, 40 + 2 * chars));
        const content = 'I can tell you this much. '.repeat(Math.ceil(chars / 26)).slice(0, chars);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'bench', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: Math.ceil(chars / 4) } }));
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
        clock.leave();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, clock, close: () => new Promise((r) => server.close(() => r())) };
}

async function smollm2(slots: number): Promise<Served> {
  const clock = new SlotClock(slots);
  const model = sharedSmolLm2({ slots, deadlineMs: 10 * 60_000, maxQueued: Infinity });
  const timed: LanguageModel = {
    name: model.name,
    assertAvailable: () => model.assertAvailable(),
    close: () => model.close(),
    async answer(c: ModelConversation) {
      clock.enter();
      try {
        return await model.answer(c);
      } finally {
        clock.leave();
      }
    },
  };
  const lab = await startLab({ model: 'smollm2', persona: 'penny', port: 0, languageModel: timed, slots });
  // the weights load on the first answer: not part of what is measured
  await fetch(`${lab.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) });
  return { url: `${lab.url}/v1`, clock, close: async () => { await lab.close(); await closeSharedSmolLm2(); } };
}

/** the driver, recording each request's messages; the scan is stopped once `cap` were sent */
function recording(driver: ChatDriver, cap: number, stop: AbortController, log: unknown[][]): ChatDriver {
  return {
    concurrency: process.env.BENCH_FIXED ? () => Number(process.env.BENCH_FIXED) : driver.concurrency ? () => driver.concurrency!() : undefined,
    close: () => driver.close(),
    async openConversation(agent) {
      const conversation = await driver.openConversation(agent);
      const turns: unknown[] = [];
      const recorded: Conversation = {
        async send(message, options) {
          if (log.length >= cap) {
            stop.abort(new Error('request cap'));
            throw stop.signal.reason;
          }
          const messages = [...turns, { role: 'user', content: message }];
          log.push(messages);
          const answer = await conversation.send(message, options);
          turns.push({ role: 'user', content: message }, { role: 'assistant', content: answer });
          return answer;
        },
        close: () => conversation.close(),
      };
      return recorded;
    },
  };
}

async function scanOnce(served: Served, cap: number) {
  const target: ScanTarget = {
    id: 't', name: 'bench', url: served.url, scan_mode: 'api', api_format: 'openai', api_key: null, model: 'bench', canaries: [],
    browser: null, http: null, max_requests_per_second: null,
  } as ScanTarget;
  const stop = new AbortController();
  const log: unknown[][] = [];
  const driver = recording(createChatDriver(target, { allowPrivate: true, concurrency: concurrencyFor(PROFILE) }), cap, stop, log);
  const busyBefore = served.clock.read();
  const fullBefore = served.clock.allBusy();
  const started = performance.now();
  let widest = 0;
  // per phase: seconds, and the slots' busy share in it
  const phases: Array<{ phase: string; at: number; busy: number }> = [];
  const enterPhase = async (phase: string) => void phases.push({ phase, at: performance.now(), busy: served.clock.read() });
  const watch = setInterval(() => (widest = Math.max(widest, driver.concurrency?.() ?? 0)), 100);
  let outcome = '';
  try {
    const ended = await runScan({
      scanId: 'capacity', seed: 'capacity-seed', profile: PROFILE, driver, target, signal: stop.signal, now: () => new Date(),
      ...(process.env.BENCH_MESSAGE_TIMEOUT_MS && { limits: { messageTimeoutMs: Number(process.env.BENCH_MESSAGE_TIMEOUT_MS) } }),
      sink: { enterPhase, recordAttempt: async () => {}, recordVulnerability: async () => {} },
    });
    // a scan the cap stopped says cancelled; one that gave up on the target says why
    outcome = ended.kind === 'completed_partial' ? `${ended.kind}: ${ended.reason}` : ended.kind;
  } finally {
    clearInterval(watch);
  }
  const ms = performance.now() - started;
  const busy = served.clock.read() - busyBefore;
  phases.push({ phase: 'end', at: performance.now(), busy: served.clock.read() });
  const byPhase = phases.slice(0, -1).map((p, i) => {
    const span = phases[i + 1].at - p.at;
    return `${p.phase} ${(span / 1000).toFixed(1)} s busy ${span > 0 ? ((phases[i + 1].busy - p.busy) / (served.clock.slots * span)).toFixed(2) : '-'}`;
  });
  const full = served.clock.allBusy() - fullBefore;
  const settled = driver.concurrency?.() ?? 0;
  await driver.close();
  return { requests: log.length, ms, busy, full, log, settled, widest, byPhase, outcome };
}

/** the same requests, exactly `slots` in flight at any time */
async function bareLoop(served: Served, slots: number, log: unknown[][]) {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: slots }, async () => {
      while (next < log.length) {
        const messages = log[next++];
        const res = await fetch(`${served.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'bench', messages }) });
        await res.arrayBuffer();
      }
    }),
  );
  return { ms: performance.now() - started };
}

async function main() {
  console.log(`node dist/bench/capacity.js ${TARGETS.join(',')} ${SLOTS.join(',')} ${PROFILE} ${CAPS.scripted} ${CAPS.smollm2}`);
  const rows: string[][] = [['target', 'slots', 'requests', 'scan s', 'loop s', 'scan/loop throughput', 'slots busy (scan)', 'all slots busy (scan)', 'conversations at end (widest)']];
  for (const name of TARGETS) {
    for (const slots of SLOTS) {
      const served = name === 'smollm2' ? await smollm2(slots) : await scripted(slots);
      try {
        const scan = await scanOnce(served, CAPS[name] || Infinity);
        const loop = await bareLoop(served, slots, scan.log);
        const ratio = loop.ms / scan.ms; // same requests: throughput ratio is the inverse of the times
        rows.push([name, String(slots), String(scan.requests), (scan.ms / 1000).toFixed(1), (loop.ms / 1000).toFixed(1), ratio.toFixed(2), (scan.busy / (slots * scan.ms)).toFixed(2), (scan.full / scan.ms).toFixed(2), `${scan.settled} (${scan.widest})`]);
        console.log(rows[rows.length - 1].join('  '));
        console.log(`  ${scan.outcome}; by phase: ${scan.byPhase.join(', ')}`);
      } finally {
        await served.close();
      }
    }
  }
  console.log('');
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
  console.log('\nscan/loop throughput = loop s ÷ scan s for the same requests (aim: ≥ 0.9 at 2 and 4 slots); slots busy = slot-seconds busy ÷ (slots × scan s); all slots busy = share of the scan\'s seconds with every slot busy');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
