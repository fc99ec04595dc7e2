import type { EventFilter, EventStore, RecordedEvent } from '@gauntlet/eventstore';
import type { Bus, Message } from '@gauntlet/messaging';
import { CheckpointedSubscription, DocumentStore, SubscriptionLog } from '@gauntlet/read-models';

/**
 * Moves facts from the log onto the bus (the transactional-outbox role, without a second store):
 * each event is published, then the checkpoint saved. A crash in between publishes it again, so
 * consumers dedupe by key (the scan id, the delivery id).
 */
export class LogRelay {
  private readonly consumer: CheckpointedSubscription;

  constructor(
    store: EventStore,
    docs: DocumentStore,
    private readonly bus: Bus,
    private readonly options: { name: string; topic: string; filter: EventFilter; toMessages: (e: RecordedEvent) => Message[]; log?: SubscriptionLog },
  ) {
    this.consumer = new CheckpointedSubscription(store, docs, options.name, (e) => this.relay(e), { filter: options.filter, log: options.log });
  }

  private async relay(event: RecordedEvent): Promise<void> {
    const messages = this.options.toMessages(event);
    if (messages.length) await this.bus.publish(this.options.topic, messages);
  }

  async start(): Promise<void> {
    await this.bus.ensureTopics([this.options.topic]);
    await this.consumer.start();
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
