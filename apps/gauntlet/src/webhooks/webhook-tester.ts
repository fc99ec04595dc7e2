import { Injectable } from '@nestjs/common';
import type { WebhookDoc } from '@gauntlet/read-models';
import { DeliveryWorker, WebhookDeliveryDoc } from '@gauntlet/webhooks';
import { WebhookReader } from './webhook-reader';

/** The api's share of the delivery worker: a test ping sent now, and queued redeliveries. */
@Injectable()
export class WebhookTester {
  constructor(private readonly worker: DeliveryWorker, private readonly webhooks: WebhookReader) {}

  async ping(webhook: WebhookDoc): Promise<WebhookDeliveryDoc> {
    const { delivery } = await this.worker.sendTest(webhook as never);
    return delivery;
  }

  async redeliver(webhookId: string, deliveryId: string): Promise<boolean> {
    const doc = await this.webhooks.delivery(deliveryId);
    if (!doc || doc.webhook_id !== webhookId) return false;
    return (await this.worker.redeliver(deliveryId)) !== null;
  }
}
