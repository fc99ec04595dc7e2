import { randomBytes } from 'node:crypto';
import { SecretBox } from '@gauntlet/auth';
import type { ScanScore, Vulnerability } from '@gauntlet/domain';
import { openSqlite, SqliteEventStore, type SqliteDatabase } from '@gauntlet/eventstore';
import { EmbeddedBus, silentBusLogger } from '@gauntlet/messaging';
import { guardedDispatcher } from '@gauntlet/outbound';
// not exported from @gauntlet/read-models yet
import { SqliteDocumentStore } from '../../../read-models/src/sqlite/sqlite-document-store';
import { eventually, Receiver } from '../../test/receiver';
import { newWebhookSecret } from '../signing';
import { DeliveryWorker } from './delivery-worker';
import { deliveryId, WebhookDispatcher } from './dispatcher';
import { COLLECTIONS, type WebhookDeliveryDoc, type WebhookDoc } from './model';
import type { LogRelay } from '@gauntlet/subscriptions';
import { webhookRelay } from './relay';

const now = () => new Date().toISOString();
const meta = { correlationId: 'c', actor: 'system', occurredAt: '2026-11-20T10:00:00.000Z' };
const score: ScanScore = { overall_score: 58, grade: 'D-', category_scores: {}, critical_count: 1, high_count: 0, medium_count: 0, low_count: 1, scoring_version: '1' };
const vuln = (id: string, severity: Vulnerability['severity']): Vulnerability => ({
  id, probe_id: 'leak.roleplay', category: 'LLM07:2025', category_name: 'System Prompt Leakage', title: `Leak ${id}`, severity, confidence: 0.9, technique: 'roleplay',
  converters: [], description: 'd', evidence: { turns: [], detector: 'canary', matched: 'C' }, remediation: 'r', references: [], phase: 'probe', found_at: now(), fingerprint: 'leak.roleplay:LLM07:2025', variants: [], how: 'Sent as written.', probes: [], conversations: 1, attempt_ids: [], supersedes: [], exposures: [],
});

describe('webhook engine on the embedded adapters, delivering to a real receiver', () => {
  let db: SqliteDatabase;
  let store: SqliteEventStore;
  let docs: SqliteDocumentStore;
  let bus: EmbeddedBus;
  let receiver: Receiver;
  let relay: LogRelay;
  let dispatcher: WebhookDispatcher;
  let worker: DeliveryWorker;
  const http = guardedDispatcher({ allowPrivate: true });
  const box = new SecretBox(randomBytes(32));
  const dropped: WebhookDeliveryDoc[] = [];
  const gone: string[] = [];
  const secrets: Record<string, string> = {};

  const webhook = (id: string, over: Partial<WebhookDoc> & { path: string }): WebhookDoc => {
    secrets[id] = newWebhookSecret();
    const { path, ...rest } = over;
    return {
      _id: id, account_id: 'acc-1', url: receiver.endpoint(path, secrets[id]), event_types: ['scan.started', 'scan.completed', 'scan.failed', 'scan.completed_partial', 'vulnerability.critical'],
      format_type: 'json', enabled: true, secret_encrypted: box.seal(secrets[id]), created_at: now(), target_id: null, min_severity: null, disabled_reason: null, deleted: false, ...rest,
    };
  };
  const deliveries = () => docs.collection<WebhookDeliveryDoc>(COLLECTIONS.deliveries);

  beforeAll(async () => {
    db = openSqlite(':memory:');
    store = new SqliteEventStore(db, { pollIntervalMs: 20 });
    docs = new SqliteDocumentStore(db);
    bus = new EmbeddedBus(db, { logger: silentBusLogger, pollIntervalMs: 20, retry: { initialMs: 20, maxMs: 200 } });
    receiver = await new Receiver().start();
    const hooks = docs.collection<WebhookDoc>(COLLECTIONS.webhooks);
    for (const w of [
      webhook('wh-json', { path: '/json' }),
      webhook('wh-flaky', { path: '/flaky', format_type: 'cef', event_types: ['scan.completed'] }),
      webhook('wh-down', { path: '/down', format_type: 'syslog', event_types: ['scan.completed'] }),
      webhook('wh-gone', { path: '/gone', format_type: 'ocsf', event_types: ['scan.started'] }),
      webhook('wh-other-account', { path: '/other', account_id: 'acc-2' }),
      webhook('wh-disabled', { path: '/disabled', enabled: false }),
      webhook('alert-t-1', { path: '/alerts', event_types: ['agent.alert'], target_id: 't-1', min_severity: 'high', format_type: 'ocsf' }),
    ]) {
      await hooks.put(w);
    }
    receiver.endpoint('/flaky', secrets['wh-flaky'], (n, res) => res.writeHead(n < 3 ? 503 : 200).end());
    receiver.endpoint('/down', secrets['wh-down'], (_n, res) => res.writeHead(500).end());
    receiver.endpoint('/gone', secrets['wh-gone'], (_n, res) => res.writeHead(410).end());

    relay = webhookRelay({ store, docs, bus, baseUrl: 'https://gauntlet.example.com' });
    dispatcher = new WebhookDispatcher({ bus, docs });
    worker = new DeliveryWorker({
      bus, docs, secrets: box, dispatcher: http, render: { productVersion: '0.1.0', syslog: { hostname: 'gauntlet-test' } }, timeoutMs: 2000, retryDelaysMs: [50, 100, 150],
      onDropped: async (d) => void dropped.push(d), onGone: async (w) => void gone.push(w._id),
    });
    await relay.start();
    await dispatcher.start();
    await worker.start();

    await store.append('scan-s-1', [
      { type: 'ScanRequested', data: { scan_id: 's-1', account_id: 'acc-1', target_id: 't-1', target_name: 'Support bot', profile: 'quick', origin: 'api', fail_threshold: null, requested_at: now() }, metadata: meta },
      { type: 'ScanStarted', data: { scan_id: 's-1', worker_id: 'w', started_at: now() }, metadata: meta },
      { type: 'VulnerabilityFound', data: { scan_id: 's-1', vulnerability: vuln('v1', 'low') }, metadata: meta },
      { type: 'VulnerabilityFound', data: { scan_id: 's-1', vulnerability: vuln('v2', 'critical') }, metadata: meta },
      { type: 'ScanCompleted', data: { scan_id: 's-1', score, finished_at: now() }, metadata: meta },
    ], { expectedRevision: 'no_stream' });
    await store.append('monitor-t-1', [
      { type: 'AgentAlertRaised', data: { account_id: 'acc-1', target_id: 't-1', target_name: 'Support bot', alert: { id: 'al-low', session_id: 's', kind: 'output', rule: 'r', severity: 'low', detector: 'd', matched: null, occurred_at: now() } }, metadata: meta },
      { type: 'AgentAlertRaised', data: { account_id: 'acc-1', target_id: 't-1', target_name: 'Support bot', alert: { id: 'al-high', session_id: 's', kind: 'tool_call', rule: 'exfil', severity: 'high', detector: 'd', matched: 'x', occurred_at: now() } }, metadata: meta },
    ], { expectedRevision: 'no_stream' });
  });

  afterAll(async () => {
    await relay.stop();
    await dispatcher.stop();
    await worker.stop();
    await bus.close();
    await store.close();
    await receiver.stop();
    await http.close();
    db.close();
  });

  it('delivers scan.started, vulnerability.critical and scan.completed in order, signed both ways, to the json webhook', async () => {
    await receiver.until(() => receiver.at('/json').length >= 3);
    const got = receiver.at('/json');
    expect(got.map((r) => JSON.parse(r.body).event)).toEqual(['scan.started', 'vulnerability.critical', 'scan.completed']);
    expect(got.every((r) => r.verified)).toBe(true);
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-service-delivery']).toBe(r.headers['webhook-id']);
      expect(r.headers['x-service-event']).toBe(JSON.parse(r.body).event);
    }
    const completed = JSON.parse(got[2].body);
    expect(completed.data).toMatchObject({ scan_id: 's-1', target_id: 't-1', target_name: 'Support bot', status: 'completed', security_score: 58, security_grade: 'D-', critical: 1, low: 1, total_findings: 2, report_url: 'https://gauntlet.example.com/api/scans/s-1/report' });
    const critical = JSON.parse(got[1].body);
    expect(critical.data).toMatchObject({ critical: 1, low: 1, total_findings: 2, vulnerability: { id: 'v2', severity: 'critical' } });
    await eventually(async () => (await deliveries().get(got[2].headers['webhook-id'] as string))?.status === 'succeeded');
  });

  it('retries a failing receiver on the schedule with the same delivery id, then succeeds', async () => {
    await receiver.until(() => receiver.at('/flaky').length >= 3);
    const got = receiver.at('/flaky');
    expect(new Set(got.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
    expect(new Set(got.map((r) => r.headers['webhook-signature'])).size).toBeGreaterThanOrEqual(1);
    expect(got[0].headers['content-type']).toMatch(/^text\/plain/);
    expect(got[0].body).toMatch(/^CEF:0\|Gauntlet\|Gauntlet\|0\.1\.0\|scan\.completed\|/);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(45);
    expect(got[2].at - got[1].at).toBeGreaterThanOrEqual(95);
    const doc = await eventually(async () => {
      const d = await deliveries().get(got[0].headers['x-service-delivery'] as string);
      return d?.status === 'succeeded' ? d : null;
    });
    expect(doc.attempts.map((a) => [a.n, a.status, a.schedule])).toEqual([[1, 503, 1], [2, 503, 2], [3, 200, 3]]);
    expect(doc.next_attempt_at).toBeNull();
  });

  it('drops a delivery after the first attempt and 3 retries, and reports it once', async () => {
    await receiver.until(() => receiver.at('/down').length >= 1);
    const id = receiver.at('/down')[0].headers['x-service-delivery'] as string;
    expect(id).toBe(deliveryId(JSON.parse(receiver.at('/json')[2].body).id, 'wh-down'));
    const doc = await eventually(async () => {
      const d = await deliveries().get(id);
      return d?.status === 'dropped' ? d : null;
    }, 5000);
    expect(receiver.at('/down')).toHaveLength(4);
    expect(receiver.at('/down').every((r) => r.verified)).toBe(true);
    expect(receiver.at('/down')[0].body).toMatch(/^<10[0-9]>1 \S+ gauntlet-test gauntlet - scan\.completed \[gauntlet@32473 /);
    expect(doc.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500]);
    expect(dropped.filter((d) => d._id === doc._id)).toHaveLength(1);
  });

  it('a 410 disables: one attempt, onGone, no retries', async () => {
    await receiver.until(() => receiver.at('/gone').length >= 1);
    const doc = await eventually(async () => {
      const d = await deliveries().get(receiver.at('/gone')[0].headers['x-service-delivery'] as string);
      return d?.status === 'dropped' ? d : null;
    });
    expect(gone).toEqual(['wh-gone']);
    expect(doc.attempts).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 120));
    expect(receiver.at('/gone')).toHaveLength(1);
    expect(JSON.parse(receiver.at('/gone')[0].body)).toMatchObject({ class_uid: 6007, activity_id: 1 });
  });

  it('sends agent alerts to the target alert webhook at or above its minimum severity only', async () => {
    await receiver.until(() => receiver.at('/alerts').length >= 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.at('/alerts')).toHaveLength(1);
    expect(JSON.parse(receiver.at('/alerts')[0].body)).toMatchObject({ class_uid: 2004, finding_info: { uid: 'al-high' } });
    expect(receiver.at('/other')).toHaveLength(0);
    expect(receiver.at('/disabled')).toHaveLength(0);
  });

  it('is idempotent: replaying every domain event sends nothing again', async () => {
    // earlier cases waited for every delivery to settle (succeeded or dropped)
    const before = receiver.received.length;
    for (const e of await store.readAll()) await relay.handle(e);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.length).toBe(before);
    expect(receiver.at('/json')).toHaveLength(3);
    // the summary was not double counted by the replay
    const summary = await docs.collection(COLLECTIONS.scanSummaries).get('s-1');
    expect(summary).toMatchObject({ critical: 1, low: 1, status: 'completed' });
  });

  it('redelivers on request with the same delivery id', async () => {
    const first = receiver.at('/json')[0];
    const job = await worker.redeliver(first.headers['x-service-delivery'] as string);
    expect(job).toMatchObject({ manual: true });
    await receiver.until(() => receiver.at('/json').length >= 4);
    const again = receiver.at('/json')[3];
    expect(again.headers['x-service-delivery']).toBe(first.headers['x-service-delivery']);
    expect(again.body).toBe(first.body);
    expect(again.verified).toBe(true);
    const doc = await eventually(async () => {
      const d = await deliveries().get(first.headers['x-service-delivery'] as string);
      return d && d.attempts.length === 2 ? d : null;
    });
    expect(doc.attempts[1]).toMatchObject({ n: 2, status: 200, manual: true, schedule: null });
    expect(await worker.redeliver('dlv_unknown')).toBeNull();
  });

  it('sends a test ping now and records it', async () => {
    const hook = (await docs.collection<WebhookDoc>(COLLECTIONS.webhooks).get('wh-json'))!;
    const { delivery, result } = await worker.sendTest(hook);
    expect(result).toMatchObject({ ok: true, status: 200 });
    const ping = receiver.at('/json').find((r) => JSON.parse(r.body).event === 'ping')!;
    expect(ping.verified).toBe(true);
    expect(ping.headers['x-service-delivery']).toBe(delivery._id);
    expect(await deliveries().get(delivery._id)).toMatchObject({ status: 'succeeded', event: 'ping' });
  });
});
