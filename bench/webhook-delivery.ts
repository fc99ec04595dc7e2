/**
 * Webhook delivery figures on the embedded adapters (one SQLite file: events, read models, bus):
 * relay -> dispatcher -> delivery worker -> a signed POST to a local receiver that verifies the
 * X-Service-Signature and answers 204.
 *
 *   npm run build && node dist/bench/webhook-delivery.js
 *
 * 1. throughput: a burst of scan events is appended at once; deliveries/s until the last 2xx.
 * 2. latency: events appended at a steady rate below saturation; time from the append call to
 *    the receiver's 2xx, p50 / p99.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '@gauntlet/auth';
import { openSqlite, SqliteEventStore } from '@gauntlet/eventstore';
import { EmbeddedBus, silentBusLogger } from '@gauntlet/messaging';
import { guardedDispatcher } from '@gauntlet/outbound';
import { SqliteDocumentStore } from '../libs/read-models/src/sqlite/sqlite-document-store';
import { COLLECTIONS, DeliveryWorker, envelopeId, newWebhookSecret, verifyServiceSignature, WebhookDispatcher, webhookRelay, type WebhookDoc } from '@gauntlet/webhooks';

const WEBHOOKS = 2;
const BURST_SCANS = 250; // x 4 webhook events (started, 2 critical, completed) x WEBHOOKS deliveries
const PACED_EVENTS_PER_S = 200;
const PACED_SECONDS = 5;
const meta = { correlationId: 'bench', actor: 'system', occurredAt: new Date().toISOString() };
const score = { overall_score: 40, grade: 'F', category_scores: {}, critical_count: 2, high_count: 0, medium_count: 0, low_count: 0, scoring_version: '1' };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-bench-wh-'));
  const db = openSqlite(join(dir, 'bench.db'));
  const store = new SqliteEventStore(db, { pollIntervalMs: 50 });
  const docs = new SqliteDocumentStore(db);
  const bus = new EmbeddedBus(db, { logger: silentBusLogger });
  const http = guardedDispatcher({ allowPrivate: true });
  const box = new SecretBox(randomBytes(32));
  const secret = newWebhookSecret();

  // envelope id -> append time; receiver records when it answered
  const appendedAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let badSignatures = 0;
  let onReceived = () => {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!verifyServiceSignature(body, req.headers['x-service-signature'] as string, secret)) badSignatures++;
      res.writeHead(204).end();
      const t0 = appendedAt.get(JSON.parse(body.toString('utf8')).id);
      if (t0 !== undefined) latencies.push(performance.now() - t0);
      received++;
      onReceived();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;

  const hooks = docs.collection<WebhookDoc>(COLLECTIONS.webhooks);
  for (let i = 0; i < WEBHOOKS; i++) {
    await hooks.put({
      _id: `wh-${i}`, account_id: 'acc', url, event_types: ['scan.started', 'scan.completed', 'vulnerability.critical'], format_type: 'json', enabled: true,
      secret_encrypted: box.seal(secret), created_at: meta.occurredAt, target_id: null, min_severity: null, disabled_reason: null, deleted: false,
    });
  }
  const relay = webhookRelay({ store, docs, bus, baseUrl: 'http://localhost:3000' });
  const dispatcher = new WebhookDispatcher({ bus, docs });
  const worker = new DeliveryWorker({ bus, docs, secrets: box, dispatcher: http, render: { productVersion: 'bench' } });
  await relay.start();
  await dispatcher.start();
  await worker.start();

  let scanNo = 0;
  /** one scan: 6 domain events, 4 of which become webhook events */
  async function appendScan(): Promise<void> {
    const id = `s-${scanNo++}`;
    const stream = `scan-${id}`;
    const vuln = (v: string) => ({
      id: v, probe_id: 'p', category: 'LLM01:2025', category_name: 'Prompt Injection', title: 'Injected', severity: 'critical', confidence: 1, technique: 't', converters: [],
      description: 'd', evidence: { turns: [], detector: 'x', matched: null }, remediation: 'r', references: [], phase: 'probe', found_at: new Date().toISOString(),
    });
    const events = [
      { type: 'ScanRequested', data: { scan_id: id, account_id: 'acc', target_id: 't', target_name: 'bot', profile: 'quick', origin: 'api', fail_threshold: null, requested_at: meta.occurredAt } },
      { type: 'ScanStarted', data: { scan_id: id, worker_id: 'w', started_at: new Date().toISOString() } },
      { type: 'ScanPhaseEntered', data: { scan_id: id, phase: 'probe', progress: 10, entered_at: new Date().toISOString() } },
      { type: 'VulnerabilityFound', data: { scan_id: id, vulnerability: vuln('v1') } },
      { type: 'VulnerabilityFound', data: { scan_id: id, vulnerability: vuln('v2') } },
      { type: 'ScanCompleted', data: { scan_id: id, score, finished_at: new Date().toISOString() } },
    ];
    const t0 = performance.now();
    const names: Record<number, string> = { 1: 'scan.started', 3: 'vulnerability.critical', 4: 'vulnerability.critical', 5: 'scan.completed' };
    for (const [rev, name] of Object.entries(names)) appendedAt.set(envelopeId(stream, Number(rev), name as 'scan.started'), t0);
    await store.append(stream, events.map((e) => ({ ...e, metadata: meta })), { expectedRevision: 'no_stream' });
  }
  const waitFor = (n: number, timeoutMs: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(received >= n), timeoutMs);
      onReceived = () => {
        if (received >= n) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      onReceived();
    });

  try {
    console.log('command: node dist/bench/webhook-delivery.js');
    console.log(`machine: node ${process.version}, ${cpus().length} cores, SQLite file in ${tmpdir()}, ${WEBHOOKS} json webhooks, receiver verifies signatures`);

    // 1. throughput
    const burst = BURST_SCANS * 4 * WEBHOOKS;
    const t0 = performance.now();
    for (let i = 0; i < BURST_SCANS; i++) await appendScan();
    const ok = await waitFor(burst, 120_000);
    const secs = (performance.now() - t0) / 1000;
    console.log(`throughput: ${received}/${burst} deliveries in ${secs.toFixed(2)} s = ${Math.round(received / secs)} deliveries/s${ok ? '' : ' (TIMED OUT)'}`);
    console.log(`  burst latency (queueing included): p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms`);

    // 2. latency at a steady rate
    latencies.length = 0;
    const before = received;
    const scans = Math.round((PACED_EVENTS_PER_S / 4) * PACED_SECONDS);
    const start = performance.now();
    for (let i = 0; i < scans; i++) {
      const due = start + (i * 1000 * 4) / PACED_EVENTS_PER_S;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await appendScan();
    }
    await waitFor(before + scans * 4 * WEBHOOKS, 60_000);
    console.log(
      `latency at ${PACED_EVENTS_PER_S} webhook events/s (${PACED_EVENTS_PER_S * WEBHOOKS} deliveries/s) for ${PACED_SECONDS} s: ` +
        `${latencies.length} deliveries, domain event append -> receiver 2xx p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    if (badSignatures) console.log(`WARNING: ${badSignatures} deliveries failed signature verification`);
  } finally {
    await relay.stop();
    await dispatcher.stop();
    await worker.stop();
    await bus.close();
    await store.close();
    await http.close();
    server.closeAllConnections();
    server.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
