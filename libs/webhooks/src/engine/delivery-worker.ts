import { randomUUID } from 'node:crypto';
import type { Bus, Consumer } from '@gauntlet/messaging';
import type { DocumentStore } from '@gauntlet/read-models';
import type { Dispatcher } from 'undici';
import { pingEnvelope, type WebhookEnvelope } from '../envelope';
import { render, type RenderOptions } from '../formats';
import { signatureHeaders } from '../signing';
import { deliver, DEFAULT_TIMEOUT_MS, type AttemptResult } from '../delivery/deliver';
import { DEFAULT_RETRY_DELAYS_MS, nextAttempt } from '../delivery/retry-policy';
import { deliveryId } from './dispatcher';
import { silentLog, type EngineLog } from './log';
import { COLLECTIONS, retryTopic, retryTopics, TOPICS, type DeliveryAttempt, type DeliveryJob, type WebhookDeliveryDoc, type WebhookDoc } from './model';

/** Opens sealed webhook secrets (SecretBox from @gauntlet/auth fits). */
export interface SecretOpener {
  open(token: string): string;
}

export interface DeliveryWorkerOptions {
  bus: Bus;
  docs: DocumentStore;
  secrets: SecretOpener;
  /** guardedDispatcher(policy) */
  dispatcher: Dispatcher;
  render: RenderOptions;
  /** WEBHOOK_TIMEOUT_MS */
  timeoutMs?: number;
  /** WEBHOOK_RETRY_DELAYS_MS */
  retryDelaysMs?: readonly number[];
  /** records the drop, as the webhook's kind records that (WebhookDeliveryDropped on an account webhook's stream, AlertDeliveryDropped on the monitor stream) */
  onDropped?: (delivery: WebhookDeliveryDoc, webhook: WebhookDoc) => Promise<void>;
  /** a 410 Gone: disables the webhook, as its kind records that (WebhookDisabled, AlertWebhookDisabled) */
  onGone?: (webhook: WebhookDoc, delivery: WebhookDeliveryDoc) => Promise<void>;
  log?: EngineLog;
  now?: () => number;
}

/** manual redeliveries carry their own id so they dedupe separately from the schedule */
type Job = DeliveryJob & { redelivery_id?: string };

/**
 * gauntlet.deliveries (+ .retry) -> the receiver. Renders the webhook's format, signs, POSTs,
 * records every attempt in webhook_deliveries, and on failure schedules the next attempt on that
 * retry's topic (bus `notBefore`) until the schedule runs out: then the delivery is dropped.
 * Idempotent under redelivery of a job: an attempt already recorded is not made again, and a
 * delivery that succeeded (or was dropped) is not sent again except by a manual redelivery.
 */
export class DeliveryWorker {
  private consumer: Consumer | null = null;

  constructor(private readonly options: DeliveryWorkerOptions) {}

  private get log() {
    return this.options.log ?? silentLog;
  }
  private now() {
    return this.options.now?.() ?? Date.now();
  }
  private get delays() {
    return this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  }
  private get deliveries() {
    return this.options.docs.collection<WebhookDeliveryDoc>(COLLECTIONS.deliveries);
  }

  async start(): Promise<void> {
    const topics = [TOPICS.deliveries, ...retryTopics(this.delays)];
    await this.options.bus.ensureTopics(topics);
    await this.deliveries.ensureIndex(['webhook_id', 'created_at']);
    this.consumer = await this.options.bus.consume(topics, { group: 'deliverers' }, async (m) => {
      await this.handle(JSON.parse(m.value) as Job);
    });
  }

  async handle(job: Job): Promise<WebhookDeliveryDoc | null> {
    const existing = await this.deliveries.get(job.delivery_id);
    if (existing && this.alreadyAttempted(existing, job)) {
      // the job came again after its attempt was recorded; if the crash came before the retry was
      // published, publish it now (a duplicate retry is itself deduped by its attempt number)
      if (!job.manual && existing.status === 'failed' && existing.next_attempt_at && this.lastScheduled(existing) === job.attempt) {
        await this.publishRetry({ ...job, attempt: job.attempt + 1 }, Date.parse(existing.next_attempt_at));
      }
      return existing;
    }
    if (existing && !job.manual && (existing.status === 'succeeded' || existing.status === 'dropped')) return existing;

    const iso = new Date(this.now()).toISOString();
    const doc: WebhookDeliveryDoc = existing ?? {
      _id: job.delivery_id, webhook_id: job.webhook_id, account_id: job.account_id, event: job.envelope.event, envelope_id: job.envelope.id,
      status: 'pending', attempts: [], next_attempt_at: null, created_at: iso, updated_at: iso, envelope: job.envelope,
    };

    const webhook = await this.options.docs.collection<WebhookDoc>(COLLECTIONS.webhooks).get(job.webhook_id);
    if (!webhook || !webhook.enabled) {
      // not a delivery failure: the owner disabled or deleted the endpoint, so there is no one to retry for
      const dropped = { ...doc, status: 'dropped' as const, next_attempt_at: null, updated_at: iso, reason: webhook ? 'webhook disabled' : 'webhook deleted' };
      await this.deliveries.put(dropped);
      return dropped;
    }

    const result = await this.attempt(webhook, job.delivery_id, job.envelope);
    const attempt: DeliveryAttempt = {
      n: doc.attempts.length + 1, at: iso, status: result.status ?? null, error: result.error ?? null, duration_ms: result.duration_ms,
      schedule: job.manual ? null : job.attempt, ...(job.manual ? { manual: true, redelivery_id: job.redelivery_id } : {}),
    };
    const next: WebhookDeliveryDoc = { ...doc, attempts: [...doc.attempts, attempt], updated_at: new Date(this.now()).toISOString() };

    if (result.ok) {
      next.status = 'succeeded';
      next.next_attempt_at = null;
      await this.deliveries.put(next);
      return next;
    }
    if (job.manual) {
      // a failed manual redelivery is recorded; it neither restarts nor ends the schedule
      await this.deliveries.put(next);
      return next;
    }
    const plan = result.gone ? ({ drop: true } as const) : nextAttempt(job.attempt, this.delays, this.now(), result.retry_after_ms);
    if ('drop' in plan) {
      next.status = 'dropped';
      next.next_attempt_at = null;
      await this.deliveries.put(next);
      this.log.warn({ delivery_id: next._id, webhook_id: next.webhook_id, event: next.event, attempts: next.attempts.length, error: attempt.error, status: attempt.status, gone: !!result.gone }, 'webhook delivery dropped');
      if (result.gone) await this.options.onGone?.(webhook, next);
      await this.options.onDropped?.(next, webhook);
      return next;
    }
    next.status = 'failed';
    next.next_attempt_at = new Date(plan.retryAt).toISOString();
    await this.deliveries.put(next);
    await this.publishRetry({ ...job, attempt: job.attempt + 1 }, plan.retryAt);
    this.log.info({ delivery_id: next._id, webhook_id: next.webhook_id, attempt: job.attempt, error: attempt.error, status: attempt.status, retry_at: next.next_attempt_at }, 'webhook delivery failed; retry scheduled');
    return next;
  }

  private alreadyAttempted(doc: WebhookDeliveryDoc, job: Job): boolean {
    return job.manual ? doc.attempts.some((a) => a.redelivery_id === job.redelivery_id) : doc.attempts.some((a) => a.schedule === job.attempt);
  }

  private lastScheduled(doc: WebhookDeliveryDoc): number {
    return Math.max(0, ...doc.attempts.map((a) => a.schedule ?? 0));
  }

  /** `job.attempt` is the attempt to make: attempt 2 is retry 1 */
  private async publishRetry(job: Job, notBefore: number): Promise<void> {
    await this.options.bus.publish(retryTopic(job.attempt - 1), [{ key: job.webhook_id, value: JSON.stringify(job), notBefore, headers: { delivery_id: job.delivery_id } }]);
  }

  /** render, sign, POST: one attempt, never throws */
  private async attempt(webhook: WebhookDoc, id: string, envelope: WebhookEnvelope): Promise<AttemptResult> {
    let secret: string;
    let rendered: { body: string; contentType: string };
    try {
      secret = this.options.secrets.open(webhook.secret_encrypted);
      rendered = render(envelope, webhook.format_type, this.options.render);
    } catch (err) {
      return { ok: false, error: `could not prepare delivery: ${(err as Error).message}`, duration_ms: 0 };
    }
    const body = Buffer.from(rendered.body, 'utf8');
    const headers = signatureHeaders({ deliveryId: id, event: envelope.event, body, secret, timestampSeconds: Math.floor(this.now() / 1000) });
    return deliver({ url: webhook.url, body, contentType: rendered.contentType, headers }, { timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, dispatcher: this.options.dispatcher });
  }

  /** POST /api/webhooks/{id}/deliveries/{delivery_id}/redeliver: one more attempt, queued; null when unknown */
  async redeliver(id: string): Promise<DeliveryJob | null> {
    const doc = await this.deliveries.get(id);
    if (!doc) return null;
    const job: Job = { delivery_id: doc._id, webhook_id: doc.webhook_id, account_id: doc.account_id, envelope: doc.envelope, attempt: doc.attempts.length + 1, manual: true, redelivery_id: randomUUID() };
    await this.options.bus.publish(TOPICS.deliveries, [{ key: job.webhook_id, value: JSON.stringify(job), headers: { delivery_id: job.delivery_id } }]);
    return job;
  }

  /** POST /api/webhooks/{id}/test: a `ping` sent now (no retries), recorded in the delivery log */
  async sendTest(webhook: WebhookDoc): Promise<{ delivery: WebhookDeliveryDoc; result: AttemptResult }> {
    const envelope = pingEnvelope(webhook._id, new Date(this.now()), randomUUID());
    const id = deliveryId(envelope.id, webhook._id);
    const result = await this.attempt(webhook, id, envelope);
    const iso = new Date(this.now()).toISOString();
    const delivery: WebhookDeliveryDoc = {
      _id: id, webhook_id: webhook._id, account_id: webhook.account_id, event: 'ping', envelope_id: envelope.id,
      status: result.ok ? 'succeeded' : 'failed', next_attempt_at: null, created_at: iso, updated_at: iso, envelope,
      attempts: [{ n: 1, at: iso, status: result.status ?? null, error: result.error ?? null, duration_ms: result.duration_ms, schedule: null, manual: true }],
    };
    await this.deliveries.put(delivery);
    return { delivery, result };
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = null;
  }
}
