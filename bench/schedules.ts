/**
 * Do schedules fire on time when many accounts hold many of them? 1,000 every-minute schedules
 * across 100 accounts (10 each, one target each) on the embedded service, and the scheduler's
 * passes (fair across accounts, bounded per account and in time: scheduler.ts) firing them.
 * Prints the lateness of each firing (fired_at − due_at, as recorded) by percentile, for all
 * accounts and, with a noisy account, for the others.
 *
 *   npm run build && node dist/bench/schedules.js [accounts, default 100] [schedules each, default 10] [noisy account's schedules on a 12-target tag, default 0] [tick ms, default 1000]
 *
 * No scanner runs: requested scans stay pending (what is measured is the scheduler, not scans).
 * Lateness includes up to one tick (a due time falls between two passes): SCHEDULER_TICK_MS is
 * 15 s in a deployment; the bench ticks every second to show what the passes themselves add. The
 * due minute is made to come 1.5 s after the passes start (the clock the scheduler reads is shifted).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../apps/gauntlet/src/config/config';
import { Role, startRoles } from '../apps/gauntlet/src/main';
import { Clock } from '../apps/gauntlet/src/platform/clock';
import { createLogger } from '../apps/gauntlet/src/platform/logger';
import { createRuntime } from '../apps/gauntlet/src/runtime';
import { Scheduler } from '../apps/gauntlet/src/schedules/scheduler';
import type { ScheduleDoc } from '@gauntlet/read-models';

const ACCOUNTS = Number(process.argv[2] ?? 100);
const EACH = Number(process.argv[3] ?? 10);
const NOISY = Number(process.argv[4] ?? 0);
const TICK_MS = Number(process.argv[5] ?? 1000);

/** real time moved by an offset: the schedulers see the due minute come while the bench runs */
class ShiftedClock extends Clock {
  offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
}

async function call(base: string, method: string, path: string, body: unknown, token?: string) {
  const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

async function account(base: string, i: number): Promise<{ id: string; token: string }> {
  const email = `bench-${i}-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'a-long-enough-password';
  const { id } = await call(base, 'POST', '/api/auth/register', { email, password });
  const { access_token } = await call(base, 'POST', '/api/auth/login', { email, password });
  return { id, token: access_token };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const line = (what: string, late: number[]) => {
  const s = [...late].sort((a, b) => a - b);
  return `${what}: ${s.length} firings, lateness p50 ${pct(s, 50)} ms, p90 ${pct(s, 90)} ms, p99 ${pct(s, 99)} ms, max ${s[s.length - 1]} ms`;
};

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-bench-schedules-'));
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '0',
    SCAN_QUOTA_FREE: 'unlimited', SCHEDULE_LIMIT_FREE: String(Math.max(EACH, NOISY)),
  });
  const runtime = await createRuntime(config, createLogger(config.logLevel));
  const { url } = await startRoles(runtime, ['api', 'projector', 'relay'] as Role[]);
  const base = url!.replace('[::1]', '127.0.0.1');
  try {
    const started = Date.now();
    const owners: string[] = [];
    // ten accounts at a time, each creating its schedules at once: setting up is not what is measured
    for (let from = 0; from < ACCOUNTS; from += 10) {
      await Promise.all(
        Array.from({ length: Math.min(10, ACCOUNTS - from) }, async (_, k) => {
          const { id, token } = await account(base, from + k);
          owners.push(id);
          const target = await call(base, 'POST', '/api/targets', { name: `bot ${from + k}`, url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai' }, token);
          await Promise.all(Array.from({ length: EACH }, () => call(base, 'POST', '/api/schedules', { target_id: target.id, cron: '* * * * *', timezone: 'UTC', catch_up: 'skip' }, token)));
        }),
      );
    }
    let noisy: string | null = null;
    if (NOISY) {
      const { id, token } = await account(base, ACCOUNTS);
      noisy = id;
      for (let t = 0; t < 12; t++) await call(base, 'POST', '/api/targets', { name: `fleet ${t}`, url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags: ['fleet'] }, token);
      for (let s = 0; s < NOISY; s += 10) await Promise.all(Array.from({ length: Math.min(10, NOISY - s) }, () => call(base, 'POST', '/api/schedules', { tag: 'fleet', cron: '* * * * *', timezone: 'UTC', catch_up: 'skip' }, token)));
    }
    console.log(`created ${ACCOUNTS * EACH} schedules across ${ACCOUNTS} accounts${NOISY ? `, and ${NOISY} on a 12-target tag in one noisy account` : ''} in ${Math.round((Date.now() - started) / 1000)} s`);

    // every schedule was created before `due`, the next minute after the last creation
    const clock = new ShiftedClock();
    const due = Math.ceil((Date.now() + 1) / 60_000) * 60_000 + 60_000;
    clock.offset = due - 1_500 - Date.now();
    const scheduler = new Scheduler(
      { writePath: runtime.writePath, docs: runtime.infra.documents, config: runtime.config, clock, log: { info: () => undefined, warn: () => undefined, error: (o: unknown) => console.error(o) } },
      { tickMs: TICK_MS, graceMs: 120_000, id: 'bench' },
    );
    const total = ACCOUNTS * EACH + NOISY;
    const passes: number[] = [];
    const docs = runtime.infra.documents.collection<ScheduleDoc>('schedules');
    const dueIso = new Date(due).toISOString();
    let fired: ScheduleDoc[] = [];
    // passes on the scheduler's own rhythm (a pass cut short by its budget is followed at once), each
    // timed, until every schedule fired for `due` (bounded)
    let deferred = 0;
    for (let i = 0; i < 600 && fired.length < total; i++) {
      const t = Date.now();
      const report = await scheduler.tick();
      deferred += report.deferred ?? 0;
      passes.push(Date.now() - t);
      // a schedule first looked at after the next minute came fires for that one (`missed` 1): it still counts, late
      fired = (await docs.find({ deleted: false }, { limit: total + 1 })).filter((d) => d.last_firing && d.last_firing.due_at >= dueIso);
      if (!report.deferred) await new Promise((r) => setTimeout(r, Math.max(0, TICK_MS - (Date.now() - t))));
    }
    const late = (d: ScheduleDoc) => Date.parse(d.last_firing!.fired_at) - due;
    console.log(line('all accounts', fired.map(late)));
    if (noisy) {
      console.log(line(`the ${ACCOUNTS} quiet accounts`, fired.filter((d) => d.account_id !== noisy).map(late)));
      console.log(line('the noisy account', fired.filter((d) => d.account_id === noisy).map(late)));
    }
    const sorted = [...passes].sort((a, b) => a - b);
    console.log(`scheduler passes: ${passes.length}, duration p50 ${pct(sorted, 50)} ms, max ${sorted[sorted.length - 1]} ms (tick ${TICK_MS} ms, pass budget ${Math.min(10_000, TICK_MS)} ms); ${deferred} schedule visits deferred to a later pass; ${total - fired.length} schedules not fired`);
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
