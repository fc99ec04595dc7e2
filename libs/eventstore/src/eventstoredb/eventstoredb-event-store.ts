import {
  ANY,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  BACKWARDS,
  END,
  EventStoreDBClient,
  excludeSystemEvents,
  eventTypeFilter,
  FORWARDS,
  jsonEvent,
  type JSONType,
  NO_STREAM,
  type ResolvedEvent,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
  type Filter,
  type Position as EsdbPosition,
} from '@eventstore/db-client';
import {
  AppendResult,
  EventFilter,
  EventHandler,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  Position,
  ReadAllOptions,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
  WrongExpectedRevisionError,
} from '../event-store';

/** events fetched per round trip while paging through `$all` */
const PAGE = 500;
/** events per round trip while looking for the head: usually the first page has it */
const HEAD_PAGE = 32;

/**
 * The EventStore on EventStoreDB (gRPC, @eventstore/db-client 6.x). A port position is the
 * commit position in the transaction log: since 20.x every event written by a plain append has a
 * commit position of its own equal to its prepare position, so `{ commit: p, prepare: p }` is an
 * exact resume point. The server's own events (types starting with `$`) never reach callers.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly subscriptions = new Set<EsdbSubscription>();

  /** `connection` is an `esdb://` connection string (EVENTSTORE_URL) or a client the caller owns */
  constructor(connection: string | EventStoreDBClient) {
    this.client = typeof connection === 'string' ? EventStoreDBClient.connectionString(connection) : connection;
  }

  async append(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    const data = events.map((e) =>
      jsonEvent({ id: e.id, type: e.type, data: (e.data ?? null) as JSONType, metadata: e.metadata ?? {} }),
    );
    try {
      const result = await this.client.appendToStream(streamId, data, { expectedRevision: toEsdbExpected(options.expectedRevision) });
      return { nextRevision: Number(result.nextExpectedRevision), position: result.position?.commit ?? -1n };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        const actual = error.actualVersion;
        throw new WrongExpectedRevisionError(streamId, options.expectedRevision, actual === NO_STREAM ? 'no_stream' : Number(actual));
      }
      throw error;
    }
  }

  async readStream(streamId: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        direction: FORWARDS,
        fromRevision: options.fromRevision === undefined ? START : BigInt(options.fromRevision),
      });
      for await (const resolved of read) {
        const event = toRecordedEvent(resolved);
        if (event) events.push(event);
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  /** `$all` reads in 6.x take no server-side filter, so the filter is applied here, page by page */
  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const wanted = options.maxCount ?? Infinity;
    const found: RecordedEvent[] = [];
    // the last record read, system ones included, so a page of nothing but system events still moves on
    let cursor = options.after;
    while (found.length < wanted) {
      let read = 0;
      // a read from a position includes the record at it: `after` is exclusive, so that one is skipped below
      const page = this.client.readAll({ direction: FORWARDS, fromPosition: cursor === undefined ? START : at(cursor), maxCount: PAGE });
      for await (const resolved of page) {
        read++;
        const position = positionOf(resolved);
        if (cursor !== undefined && position !== undefined && position <= cursor) continue;
        if (position !== undefined) cursor = position;
        const event = toRecordedEvent(resolved);
        if (event && matches(event, options.filter) && found.length < wanted) found.push(event);
      }
      if (read < PAGE) break;
    }
    return found;
  }

  /** the newest event a caller could see: the server's own events are stepped over */
  async headPosition(): Promise<Position | null> {
    let from: EsdbPosition | typeof END = END;
    for (;;) {
      let read = 0;
      let newest: RecordedEvent | null = null;
      let oldest: EsdbPosition | undefined;
      // each page is read to its end: a read left half-consumed keeps its gRPC call open, and
      // client.dispose() then waits for it forever; small pages keep that cheap
      for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: HEAD_PAGE })) {
        read++;
        newest ??= toRecordedEvent(resolved);
        oldest = resolved.event?.position;
      }
      if (newest) return newest.position;
      if (read < HEAD_PAGE || !oldest) return null;
      // whether or not a backward read includes its start, each full page moves at least HEAD_PAGE - 1 back
      from = oldest;
    }
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    const subscription = new EsdbSubscription(this.client, options, handler);
    this.subscriptions.add(subscription);
    const forget = () => this.subscriptions.delete(subscription);
    subscription.done.then(forget, forget);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }
}

/**
 * A catch-up subscription on `$all`. The server filters on one thing only (stream prefixes, else
 * event types, else system events); the rest of the filter is applied here. Events are pulled one
 * at a time through the stream's async iterator, so the handler sees them strictly in order and
 * the gRPC stream is back-pressured while it runs.
 */
class EsdbSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private signalStop: () => void = () => undefined;
  private readonly stopSignal = new Promise<{ done: true; value: undefined }>((resolve) => {
    this.signalStop = () => resolve({ done: true, value: undefined });
  });

  constructor(private readonly client: EventStoreDBClient, private readonly options: SubscribeOptions, private readonly handler: EventHandler) {
    this.done = this.run();
    this.done.catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.signalStop();
    await this.done.catch(() => undefined);
  }

  private async run(): Promise<void> {
    const { after, filter } = this.options;
    const stream = this.client.subscribeToAll({
      // a subscription from a position starts strictly after it, as the port wants
      fromPosition: after === undefined ? START : at(after),
      filter: serverFilter(filter),
    });
    const events = stream[Symbol.asyncIterator]();
    try {
      while (!this.stopped) {
        const pending = events.next();
        // when stop wins the race, this read is abandoned: its outcome must not surface as unhandled
        pending.catch(() => undefined);
        const next = await Promise.race([pending, this.stopSignal]);
        if (next.done || this.stopped) return;
        const event = toRecordedEvent(next.value);
        if (!event || (after !== undefined && event.position <= after) || !matches(event, filter)) continue;
        await this.handler(event);
      }
    } finally {
      await stream.unsubscribe().catch(() => undefined);
      stream.destroy();
    }
  }
}

function toEsdbExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

function at(position: Position): EsdbPosition {
  return { commit: position, prepare: position };
}

function serverFilter(filter: EventFilter | undefined): Filter {
  if (filter?.streamPrefixes) return streamNameFilter({ prefixes: filter.streamPrefixes });
  if (filter?.eventTypes) return eventTypeFilter({ regex: `^(${filter.eventTypes.map(escapeRegex).join('|')})$` });
  return excludeSystemEvents();
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function matches(event: RecordedEvent, filter: EventFilter | undefined): boolean {
  if (filter?.streamPrefixes && !filter.streamPrefixes.some((p) => event.streamId.startsWith(p))) return false;
  if (filter?.eventTypes && !filter.eventTypes.includes(event.type)) return false;
  return true;
}

function positionOf(resolved: ResolvedEvent | AllStreamResolvedEvent): Position | undefined {
  return resolved.event?.position?.commit ?? resolved.commitPosition;
}

/** null for what callers never see: system events, and links whose target was deleted */
function toRecordedEvent(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || event.type.startsWith('$')) return null;
  return {
    id: event.id,
    streamId: event.streamId,
    revision: Number(event.revision),
    // servers before 22.6 leave stream reads without a log position; -1 says "unknown" rather than inventing one
    position: positionOf(resolved) ?? -1n,
    type: event.type,
    data: event.isJson ? event.data : Buffer.from(event.data as Uint8Array).toString('base64'),
    metadata: isRecord(event.metadata) ? event.metadata : {},
    recordedAt: event.created.toISOString(),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
