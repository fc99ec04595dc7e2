import { Inject, Injectable } from '@nestjs/common';
import type { WebhookDoc } from '@gauntlet/read-models';
import type { DeliveryWorker, WebhookDeliveryDoc } from '@gauntlet/webhooks';
import { RUNTIME, Runtime } from '../runtime';
import { deliveryWorker } from './webhook-engine';

/** The api's share of the delivery worker: a test ping sent now, and queued redeliveries. */
@Injectable()
export class WebhookTester {
  private readonly worker: DeliveryWorker;

  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {
    this.worker = deliveryWorker(runtime);
  }

  async ping(webhook: WebhookDoc): Promise<WebhookDeliveryDoc> {
    const { delivery } = await this.worker.sendTest(webhook as never);
    return delivery;
  }

  async redeliver(webhookId: string, deliveryId: string): Promise<boolean> {
    const doc = await this.runtime.infra.documents.collection<WebhookDeliveryDoc>('webhook_deliveries').get(deliveryId);
    if (!doc || doc.webhook_id !== webhookId) return false;
    return (await this.worker.redeliver(deliveryId)) !== null;
  }
}
