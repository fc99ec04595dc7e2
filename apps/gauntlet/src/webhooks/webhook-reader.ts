import type { AgentAlertDoc, DocumentStore, FindOptions, WebhookDoc } from '@gauntlet/read-models';
import { alertWebhookId, webhookKind } from '@gauntlet/read-models';
import type { WebhookDeliveryDoc } from '@gauntlet/webhooks';
import { ProblemException } from '../http/problem';

/** Webhooks, their delivery log and the monitor's alerts as the read models have them. */
export class WebhookReader {
  constructor(private readonly docs: DocumentStore) {}

  private get webhooks() {
    return this.docs.collection<WebhookDoc>('webhooks');
  }

  private get deliveryLog() {
    return this.docs.collection<WebhookDeliveryDoc>('webhook_deliveries');
  }

  /** the caller's account webhook; absent, deleted, alert and other accounts' webhooks all answer 404 */
  async owned(account_id: string, id: string): Promise<WebhookDoc> {
    const doc = await this.webhooks.get(id);
    if (!doc || doc.deleted || doc.account_id !== account_id || webhookKind(doc) !== 'account') throw new ProblemException(404, 'Webhook not found.');
    return doc;
  }

  /** the account's webhooks, newest first */
  list(account_id: string, limit: number, after: FindOptions['after']): Promise<WebhookDoc[]> {
    return this.webhooks.find({ account_id, deleted: false, target_id: null }, { sort: { field: 'created_at', direction: 'desc' }, limit, after });
  }

  deliveries(webhook_id: string, limit: number, after: FindOptions['after']): Promise<WebhookDeliveryDoc[]> {
    return this.deliveryLog.find({ webhook_id }, { sort: { field: 'created_at', direction: 'desc' }, limit, after });
  }

  delivery(id: string): Promise<WebhookDeliveryDoc | null> {
    return this.deliveryLog.get(id);
  }

  /** the Live Agent Monitor's alert webhook of a target, null when none is configured */
  async alertWebhook(target_id: string): Promise<WebhookDoc | null> {
    const hook = await this.webhooks.get(alertWebhookId(target_id));
    return hook && !hook.deleted ? hook : null;
  }

  /** a target's alerts, newest first */
  alerts(target_id: string, limit: number, after: FindOptions['after']): Promise<AgentAlertDoc[]> {
    return this.docs.collection<AgentAlertDoc>('agent_alerts').find({ target_id }, { sort: { field: 'occurred_at', direction: 'desc' }, limit, after });
  }
}
