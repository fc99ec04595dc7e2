import type { FindingSupersedes } from '@gauntlet/domain';
import type { ScanSummary, WebhookEnvelope } from '../envelope';

export const TOPICS = {
  /** envelopes, keyed by scan id (or target id for agent alerts): one per domain event that causes one */
  webhookEvents: 'gauntlet.webhook-events',
  /** one job per (envelope, webhook), keyed by webhook id */
  deliveries: 'gauntlet.deliveries',
} as const;

/**
 * Failed jobs waiting for retry `n` (1-based), one topic per delay: a message waiting for its
 * `notBefore` holds back its partition (embedded bus and Kafka alike), so a 30-minute wait must
 * never sit in front of a 1-minute one. Within one topic every message waits the same delay, so
 * they come due in order (a longer Retry-After can only delay those behind it by its excess).
 */
export const retryTopic = (n: number) => `gauntlet.deliveries.retry-${n}`;
export const retryTopics = (delays: readonly number[]) => delays.map((_d, i) => retryTopic(i + 1));

export const COLLECTIONS = {
  webhooks: 'webhooks',
  deliveries: 'webhook_deliveries',
  scanSummaries: 'webhook_scan_summaries',
  checkpoints: 'checkpoints',
} as const;

/**
 * A webhook as the dispatcher reads it (read model `webhooks`, projected from the webhook-<id>
 * streams and, for Live Agent Monitor alert webhooks, monitor-<targetId>): one definition, the
 * projection's.
 */
export type { WebhookDoc } from '@gauntlet/read-models';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'dropped';

export interface DeliveryAttempt {
  n: number;
  at: string;
  status: number | null;
  error: string | null;
  duration_ms: number;
  /** which scheduled attempt this was (1 = first delivery, 2.. = retries); null for manual ones */
  schedule: number | null;
  /** a manual redelivery or test rather than the schedule */
  manual?: boolean;
  redelivery_id?: string;
}

/** The delivery log (`webhook_deliveries`), one document per (envelope, webhook). */
export interface WebhookDeliveryDoc {
  _id: string;
  _rev?: number;
  webhook_id: string;
  account_id: string;
  event: string;
  envelope_id: string;
  /** pending: not attempted yet; failed: last attempt failed and a retry is scheduled (next_attempt_at) */
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  /** kept so a delivery can be redelivered byte-for-byte in content */
  envelope: WebhookEnvelope;
  [k: string]: unknown;
}

/** What the relay publishes on TOPICS.webhookEvents. */
export interface RoutedEnvelope {
  account_id: string;
  /** the target whose alert webhooks receive an agent.alert */
  target_id: string;
  envelope: WebhookEnvelope;
}

/** What the dispatcher publishes on TOPICS.deliveries (and the worker on the retry topic). */
export interface DeliveryJob {
  delivery_id: string;
  webhook_id: string;
  account_id: string;
  envelope: WebhookEnvelope;
  /** the attempt this job is: 1 = first delivery */
  attempt: number;
  /** a user's redelivery: one attempt, sent even when an earlier one succeeded */
  manual?: boolean;
}

/** The relay's running summary of a scan (`webhook_scan_summaries`): a ScanSummary keyed by scan id. */
export type ScanSummaryDoc = Omit<ScanSummary, 'scan_id' | 'base_url' | 'changes'> & {
  _id: string;
  _rev?: number;
  /** when the scan was requested (absent on summaries from before it was kept) */
  created_at?: string;
  /** the fingerprints of its findings so far, for new_findings at its end */
  fingerprints?: string[];
  /** the findings that supersede probe-and-category fingerprints, with those (new_findings follows them) */
  supersedes?: FindingSupersedes[];
  [k: string]: unknown;
};
