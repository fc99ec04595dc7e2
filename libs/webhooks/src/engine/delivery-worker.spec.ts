import type { Bus, Message } from '@gauntlet/messaging';
import type { Collection, Doc, DocumentStore } from '@gauntlet/read-models';
import type { Dispatcher } from 'undici';
import { completed } from '../../test/fixtures';
import { DeliveryWorker } from './delivery-worker';
import { retryTopic, type DeliveryJob, type WebhookDeliveryDoc } from './model';

/** just enough of the ports for the worker's bookkeeping; these cases never reach HTTP */
function fakes() {
  const data = new Map<string, Map<string, Doc>>();
  const col = (name: string) => (data.get(name) ?? data.set(name, new Map()).get(name))!;
  const docs = {
    collection: (name: string) =>
      ({
        get: async (id: string) => col(name).get(id) ?? null,
        put: async (d: Doc) => void col(name).set(d._id, d),
      }) as unknown as Collection,
  } as unknown as DocumentStore;
  const published: { topic: string; messages: Message[] }[] = [];
  const bus = { publish: async (topic: string, messages: Message[]) => void published.push({ topic, messages }) } as unknown as Bus;
  const dispatcher = { dispatch: () => { throw new Error('no HTTP expected'); } } as unknown as Dispatcher;
  return { docs, bus, published, col, dispatcher };
}

const job: DeliveryJob = { delivery_id: 'dlv_1', webhook_id: 'wh', account_id: 'a', envelope: completed, attempt: 1 };
const doc = (over: Partial<WebhookDeliveryDoc>): WebhookDeliveryDoc => ({
  _id: 'dlv_1', webhook_id: 'wh', account_id: 'a', event: 'scan.completed', envelope_id: completed.id, status: 'failed', attempts: [], next_attempt_at: null,
  created_at: '', updated_at: '', envelope: completed, ...over,
});

describe('DeliveryWorker bookkeeping', () => {
  it('republishes a lost retry when a job comes again after its failed attempt was recorded', async () => {
    const f = fakes();
    const worker = new DeliveryWorker({ bus: f.bus, docs: f.docs, secrets: { open: (s) => s }, dispatcher: f.dispatcher, render: { productVersion: 't' }, retryDelaysMs: [50, 100, 150] });
    const at = '2026-11-20T10:00:00.050Z';
    f.col('webhook_deliveries').set('dlv_1', doc({ next_attempt_at: at, attempts: [{ n: 1, at: '', status: 500, error: 'HTTP 500', duration_ms: 1, schedule: 1 }] }));
    await worker.handle(job);
    expect(f.published).toHaveLength(1);
    expect(f.published[0].topic).toBe(retryTopic(1));
    expect(f.published[0].messages[0]).toMatchObject({ key: 'wh', notBefore: Date.parse(at) });
    expect(JSON.parse(f.published[0].messages[0].value)).toMatchObject({ delivery_id: 'dlv_1', attempt: 2 });
  });

  it('does nothing for a delivery that already succeeded or was dropped, or an attempt already made', async () => {
    const f = fakes();
    const worker = new DeliveryWorker({ bus: f.bus, docs: f.docs, secrets: { open: (s) => s }, dispatcher: f.dispatcher, render: { productVersion: 't' } });
    for (const status of ['succeeded', 'dropped'] as const) {
      f.col('webhook_deliveries').set('dlv_1', doc({ status }));
      expect(await worker.handle({ ...job, attempt: 2 })).toMatchObject({ status });
    }
    f.col('webhook_deliveries').set('dlv_1', doc({ status: 'failed', next_attempt_at: 'x', attempts: [{ n: 1, at: '', status: 500, error: null, duration_ms: 1, schedule: 1 }, { n: 2, at: '', status: 500, error: null, duration_ms: 1, schedule: 2 }] }));
    await worker.handle(job); // attempt 1 again, while attempt 2 is already recorded: not the latest, nothing to republish
    expect(f.published).toHaveLength(0);
  });

  it('drops without sending when the webhook was deleted or disabled', async () => {
    const f = fakes();
    const worker = new DeliveryWorker({ bus: f.bus, docs: f.docs, secrets: { open: (s) => s }, dispatcher: f.dispatcher, render: { productVersion: 't' } });
    expect(await worker.handle(job)).toMatchObject({ status: 'dropped', reason: 'webhook deleted', attempts: [] });
    f.col('webhooks').set('wh', { _id: 'wh', enabled: false } as Doc);
    expect(await worker.handle({ ...job, delivery_id: 'dlv_2' })).toMatchObject({ status: 'dropped', reason: 'webhook disabled' });
  });
});
