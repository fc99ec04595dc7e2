import { createHash } from 'node:crypto';
import { SEVERITIES, type Severity } from '@gauntlet/domain';
import type { Bus, Consumer } from '@gauntlet/messaging';
import type { DocumentStore } from '@gauntlet/read-models';
import { silentLog, type EngineLog } from './log';
import { COLLECTIONS, TOPICS, type DeliveryJob, type RoutedEnvelope, type WebhookDoc } from './model';

/** `dlv_` + 32 hex of sha256(envelope id, webhook id): the same pair always makes the same delivery */
export function deliveryId(envelopeId: string, webhookId: string): string {
  return 'dlv_' + createHash('sha256').update(`${envelopeId}\n${webhookId}`).digest('hex').slice(0, 32);
}

/** lower index = more severe (SEVERITIES is ordered critical .. low) */
const atLeast = (severity: Severity, min: Severity | null) => min === null || SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(min);

/** The enabled webhooks of the envelope's account that subscribe to it (pure). */
export function subscribers(routed: RoutedEnvelope, webhooks: WebhookDoc[]): WebhookDoc[] {
  const e = routed.envelope;
  return webhooks.filter((w) => {
    if (!w.enabled || w.account_id !== routed.account_id) return false;
    if (e.event === 'agent.alert') return w.target_id === routed.target_id && atLeast(e.data.alert.severity, w.min_severity ?? null);
    return !w.target_id && w.event_types.includes(e.event);
  });
}

/**
 * gauntlet.webhook-events -> gauntlet.deliveries: one job per subscribed webhook, with a
 * deterministic delivery id so a republished envelope makes the same jobs (the worker dedupes).
 */
export class WebhookDispatcher {
  private consumer: Consumer | null = null;

  constructor(private readonly options: { bus: Bus; docs: DocumentStore; log?: EngineLog }) {}

  async start(): Promise<void> {
    await this.options.bus.ensureTopics([TOPICS.webhookEvents, TOPICS.deliveries]);
    await this.options.docs.collection(COLLECTIONS.webhooks).ensureIndex(['account_id', 'enabled']);
    this.consumer = await this.options.bus.consume([TOPICS.webhookEvents], { group: 'dispatchers' }, async (m) => {
      await this.handle(JSON.parse(m.value) as RoutedEnvelope);
    });
  }

  async handle(routed: RoutedEnvelope): Promise<DeliveryJob[]> {
    const candidates = await this.options.docs.collection<WebhookDoc>(COLLECTIONS.webhooks).find({ account_id: routed.account_id, enabled: true });
    const jobs: DeliveryJob[] = subscribers(routed, candidates).map((w) => ({
      delivery_id: deliveryId(routed.envelope.id, w._id),
      webhook_id: w._id,
      account_id: routed.account_id,
      envelope: routed.envelope,
      attempt: 1,
    }));
    if (jobs.length === 0) return jobs;
    await this.options.bus.publish(TOPICS.deliveries, jobs.map((j) => ({ key: j.webhook_id, value: JSON.stringify(j), headers: { delivery_id: j.delivery_id } })));
    (this.options.log ?? silentLog).info({ envelope_id: routed.envelope.id, event: routed.envelope.event, deliveries: jobs.length }, 'webhook event dispatched');
    return jobs;
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = null;
  }
}
