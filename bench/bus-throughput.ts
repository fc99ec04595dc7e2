/**
 * End-to-end Bus figures: from publish to the consumer's handler, per adapter.
 *
 *   npm run build && node dist/bench/bus-throughput.js            # embedded bus
 *   eval "$(infra/kafka.sh start)" && node dist/bench/bus-throughput.js   # embedded and Kafka
 *
 * Two runs per adapter: "stream" publishes BENCH_MESSAGES messages in batches of 100 while one
 * consumer handles them (throughput; latency includes queueing), "single" publishes one message
 * at a time and waits for it (latency of an idle bus). Each handled message is committed, as in
 * production. BENCH_MESSAGES defaults to 20000.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { openSqlite } from '@gauntlet/eventstore';
import { Bus, EmbeddedBus, KafkaBus, silentBusLogger } from '@gauntlet/messaging';
import { Kafka, logLevel } from 'kafkajs';

interface Figures {
  messages: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const streamMessages = Number(process.env.BENCH_MESSAGES ?? 20_000);
const singleMessages = 300;
const batch = 100;
/** bench topics, removed from the broker afterwards */
const created: string[] = [];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Publishes `total` messages stamped with their publish time; the handler records the latency. */
async function run(bus: Bus, total: number, perPublish: number, waitEach: boolean): Promise<Figures> {
  const topic = `bench-${randomUUID().slice(0, 8)}`;
  await bus.ensureTopics([topic]);
  created.push(topic);
  const latencies: number[] = [];
  let handled = 0;
  let notify: () => void = () => undefined;
  const consumer = await bus.consume([topic], { group: `bench-${randomUUID().slice(0, 8)}` }, async (m) => {
    latencies.push(performance.now() - Number(m.value));
    handled++;
    notify();
  });
  const until = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${handled} of ${n} messages arrived within 120 s`)), 120_000);
      const check = () => {
        if (handled >= n) {
          clearTimeout(timer);
          notify = () => undefined;
          resolve();
        }
      };
      notify = check;
      check();
    });

  const started = performance.now();
  for (let sent = 0; sent < total; sent += perPublish) {
    const count = Math.min(perPublish, total - sent);
    const messages = Array.from({ length: count }, (_, i) => ({ key: `scan-${(sent + i) % 64}`, value: String(performance.now()) }));
    await bus.publish(topic, messages);
    if (waitEach) await until(sent + count);
  }
  await until(total);
  const seconds = (performance.now() - started) / 1000;
  await consumer.stop();
  const sorted = latencies.sort((a, b) => a - b);
  return { messages: total, seconds, perSecond: total / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

function line(adapter: string, mode: string, f: Figures): string {
  return `${adapter.padEnd(9)} ${mode.padEnd(7)} ${String(f.messages).padStart(6)} msgs  ${f.seconds.toFixed(2).padStart(6)} s  ${Math.round(f.perSecond).toString().padStart(7)} msg/s  p50 ${f.p50.toFixed(2).padStart(7)} ms  p99 ${f.p99.toFixed(2).padStart(7)} ms`;
}

async function bench(adapter: string, open: () => Promise<{ bus: Bus; close: () => Promise<void> }>): Promise<void> {
  const { bus, close } = await open();
  try {
    console.log(line(adapter, 'stream', await run(bus, streamMessages, batch, false)));
    console.log(line(adapter, 'single', await run(bus, singleMessages, 1, true)));
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  console.log(`bus end-to-end (publish -> handler, committed), node ${process.version}, ${new Date().toISOString()}`);
  await bench('embedded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gauntlet-bench-bus-'));
    const db = openSqlite(join(dir, 'gauntlet.db'));
    const bus = new EmbeddedBus(db, { logger: silentBusLogger });
    return {
      bus,
      close: async () => {
        await bus.close();
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  const brokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean);
  if (!brokers?.length) {
    console.log('kafka     skipped: KAFKA_BROKERS is not set (eval "$(infra/kafka.sh start)")');
    return;
  }
  await bench('kafka', async () => {
    const bus = new KafkaBus({ brokers, clientId: 'gauntlet-bench', logger: silentBusLogger, heartbeatIntervalMs: 500, sessionTimeoutMs: 6000 });
    return {
      bus,
      close: async () => {
        await bus.close();
        const admin = new Kafka({ clientId: 'gauntlet-bench-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
        await admin.connect();
        await admin.deleteTopics({ topics: created }).catch(() => undefined);
        await admin.disconnect();
      },
    };
  });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
