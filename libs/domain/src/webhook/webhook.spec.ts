import { spec } from '@gauntlet/testing';
import { webhookDecider, WebhookEvent } from './webhook';

const now = '2026-11-21T10:00:00.000Z';
const registered: WebhookEvent = {
  type: 'WebhookRegistered',
  schemaVersion: 1,
  data: { webhook_id: 'w1', account_id: 'a1', url: 'https://siem.example.com/in', event_types: ['scan.completed'], format_type: 'ocsf', secret_encrypted: 'v1.s', registered_at: now },
};

describe('webhook decider', () => {
  it('registers a webhook with its event types deduplicated', () => {
    const [e] = spec(webhookDecider)
      .given([])
      .when({ type: 'RegisterWebhook', webhook_id: 'w1', account_id: 'a1', url: 'https://siem.example.com/in', event_types: ['scan.completed', 'scan.completed'], format_type: 'ocsf', secret_encrypted: 'v1.s', now })
      .thenEvents();
    expect(e).toEqual(registered);
  });

  it('needs at least one event type', () => {
    spec(webhookDecider)
      .given([])
      .when({ type: 'RegisterWebhook', webhook_id: 'w1', account_id: 'a1', url: 'u', event_types: [], format_type: 'json', secret_encrypted: 's', now })
      .thenFails('invalid');
  });

  it('rotates the secret for its owner only', () => {
    spec(webhookDecider)
      .given([registered])
      .when({ type: 'RotateWebhookSecret', account_id: 'a1', secret_encrypted: 'v1.t', now })
      .then([{ type: 'WebhookSecretRotated', schemaVersion: 1, data: { webhook_id: 'w1', account_id: 'a1', secret_encrypted: 'v1.t', rotated_at: now } }]);
    spec(webhookDecider).given([registered]).when({ type: 'RotateWebhookSecret', account_id: 'a2', secret_encrypted: 'x', now }).thenFails('not_found');
  });

  it('disables once (an endpoint answering 410 Gone), and a deleted webhook is gone', () => {
    const disabled: WebhookEvent = { type: 'WebhookDisabled', schemaVersion: 1, data: { webhook_id: 'w1', account_id: 'a1', reason: '410 Gone', disabled_at: now } };
    spec(webhookDecider).given([registered]).when({ type: 'DisableWebhook', reason: '410 Gone', now }).then([disabled]);
    spec(webhookDecider).given([registered, disabled]).when({ type: 'DisableWebhook', reason: '410 Gone', now }).then([]);
    const deleted: WebhookEvent = { type: 'WebhookDeleted', schemaVersion: 1, data: { webhook_id: 'w1', account_id: 'a1', deleted_at: now } };
    spec(webhookDecider).given([registered]).when({ type: 'DeleteWebhook', account_id: 'a1', now }).then([deleted]);
    spec(webhookDecider).given([registered, deleted]).when({ type: 'DeleteWebhook', account_id: 'a1', now }).thenFails('not_found');
  });

  it('records a dropped delivery once, even if the drop is reported twice', () => {
    const dropped: WebhookEvent = {
      type: 'WebhookDeliveryDropped',
      schemaVersion: 1,
      data: { webhook_id: 'w1', account_id: 'a1', delivery_id: 'd1', event: 'scan.completed', attempts: 4, last_error: 'HTTP 500', dropped_at: now },
    };
    const cmd = { type: 'RecordDeliveryDropped' as const, delivery_id: 'd1', event: 'scan.completed', attempts: 4, last_error: 'HTTP 500', now };
    spec(webhookDecider).given([registered]).when(cmd).then([dropped]);
    spec(webhookDecider).given([registered, dropped]).when(cmd).then([]);
  });
});
