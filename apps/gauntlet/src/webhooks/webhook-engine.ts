import { randomUUID } from 'node:crypto';
import { monitorDecider, streams, webhookDecider } from '@gauntlet/domain';
import { webhookKind, type WebhookDoc } from '@gauntlet/read-models';
import { guardedDispatcher } from '@gauntlet/outbound';
import { DeliveryWorker, WebhookDeliveryDoc, WebhookDispatcher, webhookRelay } from '@gauntlet/webhooks';
import { Runtime } from '../runtime';

const PRODUCT_VERSION = '0.1.0';

/**
 * The webhook pipeline's three parts, built from the runtime: relay (log -> envelopes on the
 * bus), dispatcher (envelope -> one job per subscribed webhook) and delivery worker (sign,
 * deliver, retry, drop). Drops and 410 Gone are recorded as events on the webhook's stream, as
 * its kind has it: an account webhook's own stream, an alert webhook's monitor stream.
 */
export function deliveryWorker(runtime: Runtime): DeliveryWorker {
  const { config, infra, secrets, log, writePath, clock } = runtime;
  const system = () => ({ actor: 'system:deliveries', correlationId: randomUUID() });
  return new DeliveryWorker({
    bus: infra.bus,
    docs: infra.documents,
    secrets,
    dispatcher: guardedDispatcher({ allowPrivate: config.outboundAllowPrivate }),
    render: { productVersion: PRODUCT_VERSION },
    timeoutMs: config.webhookTimeoutMs,
    retryDelaysMs: config.webhookRetryDelaysMs,
    log: log.child({ component: 'deliveries' }),
    onDropped: async (d: WebhookDeliveryDoc, webhook: WebhookDoc) => {
      log.warn({ delivery_id: d._id, webhook_id: d.webhook_id, event: d.event, attempts: d.attempts.length }, 'webhook delivery dropped after its last retry');
      // each drop is recorded on the stream of the webhook's kind: what an auditor replays
      const last = d.attempts[d.attempts.length - 1];
      const dropped = { delivery_id: d._id, event: d.event, attempts: d.attempts.length, last_error: last?.error ?? (last?.status ? `HTTP ${last.status}` : null), now: clock.iso() };
      if (webhookKind(webhook) === 'alert') {
        await writePath.decide(monitorDecider, streams.monitor(webhook.target_id!), { type: 'RecordAlertDeliveryDropped', ...dropped }, system());
      } else {
        await writePath.decide(webhookDecider, streams.webhook(d.webhook_id), { type: 'RecordDeliveryDropped', ...dropped }, system());
      }
    },
    onGone: async (webhook: WebhookDoc) => {
      log.warn({ webhook_id: webhook._id }, 'webhook endpoint answered 410 Gone: disabling it');
      const reason = 'The endpoint answered 410 Gone.';
      if (webhookKind(webhook) === 'alert') {
        await writePath.decide(monitorDecider, streams.monitor(webhook.target_id!), { type: 'DisableAlertWebhook', reason, now: clock.iso() }, system());
      } else {
        await writePath.decide(webhookDecider, streams.webhook(webhook._id), { type: 'DisableWebhook', reason, now: clock.iso() }, system());
      }
    },
  });
}

export async function startWebhookRelay(runtime: Runtime): Promise<() => Promise<void>> {
  const relay = webhookRelay({ store: runtime.infra.events, docs: runtime.infra.documents, bus: runtime.infra.bus, baseUrl: runtime.config.publicBaseUrl, log: runtime.log.child({ component: 'webhook-relay' }) });
  await relay.start();
  return () => relay.stop();
}

export async function startWebhookDispatch(runtime: Runtime): Promise<() => Promise<void>> {
  const dispatcher = new WebhookDispatcher({ bus: runtime.infra.bus, docs: runtime.infra.documents, log: runtime.log.child({ component: 'webhook-dispatcher' }) });
  const worker = deliveryWorker(runtime);
  await dispatcher.start();
  await worker.start();
  return async () => {
    await dispatcher.stop();
    await worker.stop();
  };
}
