/**
 * The EventStore port: the only way state is written in Gauntlet.
 * Shaped after EventStoreDB (streams, expected revision, the $all log with global positions,
 * catch-up subscriptions) so the real engine fits it without translation.
 */

/** Expected revision of a stream when appending. A number is the revision of the stream's last event (0-based). */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/** A position in the global log. Opaque to callers except for ordering; serialise with `String()`. */
export type Position = bigint;

export interface EventToAppend {
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  /** optional client id; the store generates one when absent */
  id?: string;
}

export interface RecordedEvent {
  id: string;
  streamId: string;
  /** 0-based index in its stream */
  revision: number;
  /** global position in the log; strictly increasing in append order */
  position: Position;
  type: string;
  data: any;
  metadata: Record<string, any>;
  /** when the store recorded it (ISO 8601) */
  recordedAt: string;
}

export interface AppendResult {
  /** revision of the last event written (or the stream's current revision when nothing was written) */
  nextRevision: number;
  /** global position of the last event written */
  position: Position;
}

export interface ReadAllOptions {
  /** exclusive: events strictly after this position. Absent: from the start. */
  after?: Position;
  maxCount?: number;
  filter?: EventFilter;
}

export interface EventFilter {
  /** keep events whose stream id starts with one of these (e.g. `scan-`) */
  streamPrefixes?: string[];
  /** keep events of these types */
  eventTypes?: string[];
}

export interface SubscribeOptions {
  /** exclusive checkpoint: deliver events strictly after it. Absent: from the start. */
  after?: Position;
  filter?: EventFilter;
}

export interface Subscription {
  /** stops delivery; resolves when the handler is no longer running */
  stop(): Promise<void>;
  /** resolves when the subscription ends (after stop, or rejects on a fatal error) */
  readonly done: Promise<void>;
}

/**
 * Handlers run one at a time, in log order. A handler that throws ends the subscription with
 * that error (the caller restarts it from its last checkpoint): no event is skipped.
 */
export type EventHandler = (event: RecordedEvent) => Promise<void>;

export class WrongExpectedRevisionError extends Error {
  constructor(readonly streamId: string, readonly expected: ExpectedRevision, readonly actual: number | 'no_stream') {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export interface EventStore {
  append(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** the whole stream in order, or [] when it does not exist */
  readStream(streamId: string, options?: { fromRevision?: number }): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** the position of the newest event in the log, or null when empty */
  headPosition(): Promise<Position | null>;
  /** catch up from `after`, then stay live */
  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription;
  close(): Promise<void>;
}
