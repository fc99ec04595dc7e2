import type { EventHandler, EventStore, ReadAllOptions, RecordedEvent, SubscribeOptions, Subscription } from './event-store';

/** An event as any version of its type recorded it, read as the current version (pure; the same event when it is current). */
export type Upcast = (event: RecordedEvent) => RecordedEvent;

/**
 * The store every reader reads through: whatever comes out of it (a stream for a decider, the log
 * for the projector and the relays, a history) is in its type's current shape, upcast once here
 * rather than at each reader. Appends go through as they are. What was written stays reachable as
 * `recorded`: the audit trail's chain covers the events as written, never as read today.
 */
export class UpcastingEventStore implements EventStore {
  constructor(
    readonly recorded: EventStore,
    readonly upcast: Upcast,
  ) {}

  append(...args: Parameters<EventStore['append']>) {
    return this.recorded.append(...args);
  }

  async readStream(streamId: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]> {
    return (await this.recorded.readStream(streamId, options)).map(this.upcast);
  }

  async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return (await this.recorded.readAll(options)).map(this.upcast);
  }

  headPosition() {
    return this.recorded.headPosition();
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    return this.recorded.subscribeToAll(options, (event) => handler(this.upcast(event)));
  }

  close() {
    return this.recorded.close();
  }
}
