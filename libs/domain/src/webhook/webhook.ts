import { Decider, DomainError } from '../decider';
import { DomainEvent, event } from '../events';

export const WEBHOOK_EVENT_TYPES = ['scan.started', 'scan.completed', 'scan.failed', 'scan.completed_partial', 'vulnerability.critical', 'scan.regressed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/**
 * The name of a SIEM format. No rule here depends on which one, so the list lives with the formats
 * (libs/webhooks/src/formats); the API admits only those names.
 */
export type FormatType = string;

export type WebhookEvent =
  | DomainEvent<'WebhookRegistered', {
      webhook_id: string; account_id: string; url: string; event_types: WebhookEventType[]; format_type: FormatType;
      secret_encrypted: string; registered_at: string;
    }>
  | DomainEvent<'WebhookSecretRotated', { webhook_id: string; account_id: string; secret_encrypted: string; rotated_at: string }>
  | DomainEvent<'WebhookDisabled', { webhook_id: string; account_id: string; reason: string; disabled_at: string }>
  | DomainEvent<'WebhookDeleted', { webhook_id: string; account_id: string; deleted_at: string }>
  | DomainEvent<'WebhookDeliveryDropped', { webhook_id: string; account_id: string; delivery_id: string; event: string; attempts: number; last_error: string | null; dropped_at: string }>;

export type WebhookCommand =
  | { type: 'RegisterWebhook'; webhook_id: string; account_id: string; url: string; event_types: WebhookEventType[]; format_type: FormatType; secret_encrypted: string; now: string }
  | { type: 'RotateWebhookSecret'; account_id: string; secret_encrypted: string; now: string }
  | { type: 'DisableWebhook'; reason: string; now: string }
  | { type: 'DeleteWebhook'; account_id: string; now: string }
  | { type: 'RecordDeliveryDropped'; delivery_id: string; event: string; attempts: number; last_error: string | null; now: string };

export interface WebhookState {
  id: string | null;
  account_id: string | null;
  enabled: boolean;
  deleted: boolean;
  droppedDeliveries: string[];
}

export const webhookDecider: Decider<WebhookCommand, WebhookEvent, WebhookState> = {
  initialState: () => ({ id: null, account_id: null, enabled: false, deleted: false, droppedDeliveries: [] }),

  decide(command, state) {
    if (command.type === 'RegisterWebhook') {
      if (state.id) return [];
      if (command.event_types.length === 0) throw new DomainError('invalid', 'event_types must name at least one event.', { field: 'event_types' });
      const { type: _t, now, ...data } = command;
      return [event('WebhookRegistered', { ...data, event_types: [...new Set(data.event_types)], registered_at: now })];
    }
    if (!state.id || state.deleted) throw new DomainError('not_found', 'Webhook not found.');
    const webhook_id = state.id;
    const account_id = state.account_id!;
    switch (command.type) {
      case 'RotateWebhookSecret':
        if (command.account_id !== account_id) throw new DomainError('not_found', 'Webhook not found.');
        return [event('WebhookSecretRotated', { webhook_id, account_id, secret_encrypted: command.secret_encrypted, rotated_at: command.now })];
      case 'DisableWebhook':
        if (!state.enabled) return [];
        return [event('WebhookDisabled', { webhook_id, account_id, reason: command.reason, disabled_at: command.now })];
      case 'DeleteWebhook':
        if (command.account_id !== account_id) throw new DomainError('not_found', 'Webhook not found.');
        return [event('WebhookDeleted', { webhook_id, account_id, deleted_at: command.now })];
      case 'RecordDeliveryDropped': {
        // the auditable record that an event never reached the SIEM after every retry
        if (state.droppedDeliveries.includes(command.delivery_id)) return [];
        const { type: _t, now, ...data } = command;
        return [event('WebhookDeliveryDropped', { webhook_id, account_id, ...data, dropped_at: now })];
      }
    }
  },

  evolve(state, e) {
    switch (e.type) {
      case 'WebhookRegistered':
        return { id: e.data.webhook_id, account_id: e.data.account_id, enabled: true, deleted: false, droppedDeliveries: [] };
      case 'WebhookDisabled':
        return { ...state, enabled: false };
      case 'WebhookDeleted':
        return { ...state, deleted: true, enabled: false };
      case 'WebhookDeliveryDropped':
        return { ...state, droppedDeliveries: [...state.droppedDeliveries, e.data.delivery_id] };
      default:
        return state;
    }
  },
};
