import type { EventFilter, EventStore, Position, RecordedEvent } from '@gauntlet/eventstore';
import type { Bus, Message } from '@gauntlet/messaging';
import type { CheckpointStore } from './checkpoint-store';
import { CheckpointedSubscription, SubscriptionLog } from './checkpointed-subscription';

/** What one relay moves: which events, onto which topic, as which messages. */
export interface RelayRoute {
  topic: string;
  filter: EventFilter;
  /** the messages one event becomes (none: nothing is published for it) */
  toMessages(event: RecordedEvent): Message[] | Promise<Message[]>;
  /** run once before the first event (indexes the mapping reads) */
  prepare?(): Promise<void>;
}

export interface LogRelayOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  bus: Bus;
  /** the checkpoint's name; one relay per route and deployment (a second would only publish duplicates) */
  name: string;
  route: RelayRoute;
  log?: SubscriptionLog;
}

/**
 * Moves facts from the log onto the bus (the transactional-outbox role, without a second store):
 * each event is mapped and published, then the checkpoint saved. A crash in between publishes it
 * again, so consumers dedupe by key (the scan id, the envelope and delivery ids). Scan jobs and
 * webhook envelopes are two routes of this one relay.
 */
export class LogRelay {
  private readonly subscription: CheckpointedSubscription;

  constructor(private readonly options: LogRelayOptions) {
    this.subscription = new CheckpointedSubscription(options.store, options.checkpoints, options.name, (e) => this.handle(e), {
      filter: options.route.filter,
      log: options.log,
    });
  }

  async start(): Promise<void> {
    await this.options.bus.ensureTopics([this.options.route.topic]);
    await this.options.route.prepare?.();
    await this.subscription.start();
  }

  /** one event: mapped and published (what the subscription runs; replays call it too) */
  async handle(event: RecordedEvent): Promise<void> {
    const messages = await this.options.route.toMessages(event);
    if (messages.length) await this.options.bus.publish(this.options.route.topic, messages);
  }

  /** the last position whose messages are on the bus */
  position(): Promise<Position | null> {
    return this.subscription.position();
  }

  get lastError(): string | null {
    return this.subscription.lastError;
  }

  stop(): Promise<void> {
    return this.subscription.stop();
  }
}
