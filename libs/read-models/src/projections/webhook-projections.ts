import { isStream, type AgentAlert, type FormatType, type MonitorEvent, type Severity, type WebhookEvent } from '@gauntlet/domain';
import type { RecordedEvent } from '@gauntlet/eventstore';
import { Projection } from './projection';

/**
 * The two kinds of webhook: an account's (stream webhook-<id>, decided by the webhook decider) and
 * the Live Agent Monitor's per-target alert webhook (stream monitor-<targetId>, the monitor
 * decider; its document id is `alert-<targetId>`).
 */
export type WebhookKind = 'account' | 'alert';

/**
 * A webhook as the dispatcher and the api read it, of either kind. The shape is the webhooks
 * library's WebhookDoc, plus `deleted`.
 */
export interface WebhookDoc {
  _id: string;
  _rev?: number;
  /** absent on documents projected before it was recorded: `webhookKind` reads those */
  kind?: WebhookKind;
  account_id: string;
  url: string;
  event_types: string[];
  format_type: FormatType;
  enabled: boolean;
  secret_encrypted: string;
  created_at: string;
  target_id: string | null;
  min_severity: Severity | null;
  disabled_reason: string | null;
  deleted: boolean;
  [k: string]: unknown;
}

export const alertWebhookId = (targetId: string) => `alert-${targetId}`;

/** which kind a webhook is (documents projected before `kind` was recorded: an alert webhook is the one with a target) */
export const webhookKind = (doc: Pick<WebhookDoc, 'kind' | 'target_id'>): WebhookKind => doc.kind ?? (doc.target_id !== null ? 'alert' : 'account');

export const webhooksProjection: Projection<WebhookDoc> = {
  collection: 'webhooks',
  indexes: [['account_id', 'deleted', 'created_at'], ['account_id', 'enabled'], ['target_id', 'enabled']],
  documentId(e) {
    if (isStream('webhook', e.streamId)) return e.data.webhook_id;
    if (e.type === 'AlertWebhookConfigured' || e.type === 'AlertWebhookRemoved' || e.type === 'AlertWebhookDisabled') return alertWebhookId(e.data.target_id);
    return null;
  },
  apply(doc, event) {
    const e = event as RecordedEvent & (WebhookEvent | MonitorEvent);
    switch (e.type) {
      case 'WebhookRegistered': {
        const d = e.data;
        return {
          _id: d.webhook_id, kind: 'account', account_id: d.account_id, url: d.url, event_types: d.event_types, format_type: d.format_type, enabled: true,
          secret_encrypted: d.secret_encrypted, created_at: d.registered_at, target_id: null, min_severity: null, disabled_reason: null, deleted: false,
        };
      }
      case 'AlertWebhookConfigured': {
        const d = e.data;
        return {
          _id: alertWebhookId(d.target_id), kind: 'alert', account_id: d.account_id, url: d.url, event_types: ['agent.alert'], format_type: d.format_type, enabled: true,
          secret_encrypted: d.secret_encrypted, created_at: doc?.created_at ?? d.configured_at, target_id: d.target_id, min_severity: d.min_severity,
          disabled_reason: null, deleted: false,
        };
      }
      case 'WebhookSecretRotated':
        return doc && { ...doc, secret_encrypted: e.data.secret_encrypted };
      case 'WebhookDisabled':
      case 'AlertWebhookDisabled':
        return doc && { ...doc, enabled: false, disabled_reason: e.data.reason };
      case 'WebhookDeleted':
      case 'AlertWebhookRemoved':
        return doc && { ...doc, enabled: false, deleted: true };
      default:
        return doc;
    }
  },
};

export type AgentAlertDoc = AgentAlert & { _id: string; _rev?: number; account_id: string; target_id: string; [k: string]: unknown };

export const agentAlertsProjection: Projection<AgentAlertDoc> = {
  collection: 'agent_alerts',
  indexes: [['target_id', 'occurred_at']],
  documentId: (e) => (e.type === 'AgentAlertRaised' ? e.data.alert.id : null),
  apply(doc, event) {
    const e = event as RecordedEvent & MonitorEvent;
    if (e.type !== 'AgentAlertRaised' || doc) return doc;
    return { ...e.data.alert, _id: e.data.alert.id, account_id: e.data.account_id, target_id: e.data.target_id };
  },
};
