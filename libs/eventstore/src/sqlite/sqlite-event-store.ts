import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
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
import type { SqliteDatabase } from './database';

export interface SqliteEventStoreOptions {
  /** how often a live subscription looks for events appended by another process (ms) */
  pollIntervalMs?: number;
  /** events read per query while a subscription catches up */
  pageSize?: number;
}

interface EventRow {
  position: number;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS es_events (
    -- AUTOINCREMENT: a position is never reused, even after the newest row is gone
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id    TEXT    NOT NULL,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL
  );
  -- the last line of defence for optimistic concurrency, also across processes sharing the file
  CREATE UNIQUE INDEX IF NOT EXISTS es_events_stream_revision ON es_events (stream_id, revision);
`;

/**
 * Wake-up calls for live subscriptions, keyed by database file, so every store on the same
 * file in this process hears of an append at once. Other processes are caught by the poll.
 */
const appendListeners = new Map<string, Set<() => void>>();

function fileKey(db: SqliteDatabase): string {
  // ':memory:' databases are private to their connection: key them by the connection itself
  return db.memory ? `memory:${memoryIds.get(db) ?? memoryIds.set(db, randomUUID()).get(db)}` : `file:${db.name}`;
}
const memoryIds = new WeakMap<SqliteDatabase, string>();

/**
 * The embedded EventStore: one table in the shared SQLite file. better-sqlite3 is synchronous, so
 * an append runs whole inside one JavaScript turn and one IMMEDIATE transaction: concurrent
 * appenders in this process are serialised by the event loop, other processes by SQLite's write
 * lock. Positions come from the rowid and so grow in commit order, with no gaps a reader could
 * see before they fill (a writer commits its whole batch or nothing, one writer at a time).
 *
 * The database belongs to the caller (it is shared with read models and the bus): `close()` stops
 * this store's subscriptions and leaves the connection open.
 */
export class SqliteEventStore implements EventStore {
  private readonly key: string;
  private readonly pollIntervalMs: number;
  private readonly pageSize: number;
  private readonly subscriptions = new Set<SqliteSubscription>();
  private readonly statements = new Map<string, Statement>();
  private readonly lastOfStream: Statement<[string], { revision: number; position: number }>;
  private readonly insert: Statement<[string, string, number, string, string, string, string]>;
  private readonly head: Statement<[], { position: number | null }>;
  private readonly appendInTransaction: (streamId: string, events: EventToAppend[], expected: ExpectedRevision) => AppendResult;
  private readonly snapshot: <T>(read: () => T) => T;
  private closed = false;

  constructor(private readonly db: SqliteDatabase, options: SqliteEventStoreOptions = {}) {
    this.pollIntervalMs = options.pollIntervalMs ?? 200;
    this.pageSize = options.pageSize ?? 500;
    this.key = fileKey(db);
    db.exec(SCHEMA);
    this.lastOfStream = db.prepare('SELECT revision, position FROM es_events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
    this.insert = db.prepare(
      'INSERT INTO es_events (event_id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.head = db.prepare('SELECT MAX(position) AS position FROM es_events');

    const append = (streamId: string, events: EventToAppend[], expected: ExpectedRevision): AppendResult => {
      const last = this.lastOfStream.get(streamId);
      const current = last ? last.revision : -1;
      checkExpected(streamId, expected, current);
      if (events.length === 0) return { nextRevision: current, position: BigInt(last?.position ?? -1) };
      const recordedAt = new Date().toISOString();
      let revision = current;
      let position: number | bigint = 0;
      for (const event of events) {
        revision++;
        position = this.insert.run(
          event.id ?? randomUUID(),
          streamId,
          revision,
          event.type,
          JSON.stringify(event.data ?? null),
          JSON.stringify(event.metadata ?? {}),
          recordedAt,
        ).lastInsertRowid;
      }
      return { nextRevision: revision, position: BigInt(position) };
    };
    const transaction = db.transaction(append);
    const readTransaction = db.transaction((read: () => unknown) => read());
    this.snapshot = <T>(read: () => T) => readTransaction(read) as T;
    this.appendInTransaction = (streamId, events, expected) => transaction.immediate(streamId, events, expected);
  }

  async append(streamId: string, events: EventToAppend[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    this.assertOpen();
    const result = this.appendInTransaction(streamId, events, options.expectedRevision);
    if (events.length > 0) notifyAppended(this.key);
    return result;
  }

  async readStream(streamId: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    const rows = this.statement('SELECT * FROM es_events WHERE stream_id = ? AND revision >= ? ORDER BY revision').all(
      streamId,
      options.fromRevision ?? 0,
    ) as EventRow[];
    return rows.map(toRecordedEvent);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readPage(options.after ?? 0n, options.filter, options.maxCount ?? -1);
  }

  async headPosition(): Promise<Position | null> {
    this.assertOpen();
    const row = this.head.get();
    return row?.position == null ? null : BigInt(row.position);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    this.assertOpen();
    const subscription = new SqliteSubscription(
      {
        readPage: (after) => this.scan(after, options.filter),
        listen: (wake) => listen(this.key, wake),
        pollIntervalMs: this.pollIntervalMs,
      },
      options.after ?? 0n,
      handler,
    );
    this.subscriptions.add(subscription);
    subscription.done.then(
      () => this.subscriptions.delete(subscription),
      () => this.subscriptions.delete(subscription),
    );
    return subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('SqliteEventStore is closed');
  }

  /** events strictly after `after` matching the filter, oldest first; maxCount -1 means no limit */
  private readPage(after: Position, filter: EventFilter | undefined, maxCount: number): RecordedEvent[] {
    const { where, params } = filterClause(filter);
    const rows = this.statement(`SELECT * FROM es_events WHERE position > ?${where} ORDER BY position LIMIT ?`).all(
      after,
      ...params,
      maxCount,
    ) as EventRow[];
    return rows.map(toRecordedEvent);
  }

  /**
   * One page for a subscription, plus how far the log was searched: with a narrow filter the
   * matches are sparse, and remembering the searched point keeps each poll from rescanning the
   * same unmatched rows. Both reads share one snapshot, so nothing lands between them unseen.
   */
  private scan(after: Position, filter: EventFilter | undefined): { events: RecordedEvent[]; searchedTo: Position } {
    return this.snapshot(() => {
      const events = this.readPage(after, filter, this.pageSize);
      if (events.length === this.pageSize) return { events, searchedTo: events[events.length - 1].position };
      const head = this.head.get()?.position;
      return { events, searchedTo: head == null || BigInt(head) < after ? after : BigInt(head) };
    });
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

function checkExpected(streamId: string, expected: ExpectedRevision, current: number): void {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === -1) ||
    (expected === 'stream_exists' && current >= 0) ||
    (typeof expected === 'number' && expected === current);
  if (!ok) throw new WrongExpectedRevisionError(streamId, expected, current === -1 ? 'no_stream' : current);
}

function filterClause(filter: EventFilter | undefined): { where: string; params: (string | number)[] } {
  let where = '';
  const params: (string | number)[] = [];
  if (filter?.streamPrefixes) {
    // substr rather than LIKE: stream ids may hold '_' or '%'
    where += filter.streamPrefixes.length
      ? ` AND (${filter.streamPrefixes.map(() => 'substr(stream_id, 1, ?) = ?').join(' OR ')})`
      : ' AND 0';
    for (const prefix of filter.streamPrefixes) params.push(prefix.length, prefix);
  }
  if (filter?.eventTypes) {
    where += filter.eventTypes.length ? ` AND type IN (${filter.eventTypes.map(() => '?').join(', ')})` : ' AND 0';
    params.push(...filter.eventTypes);
  }
  return { where, params };
}

function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: row.revision,
    position: BigInt(row.position),
    type: row.type,
    data: JSON.parse(row.data),
    metadata: JSON.parse(row.metadata),
    recordedAt: row.recorded_at,
  };
}

function notifyAppended(key: string): void {
  for (const wake of appendListeners.get(key) ?? []) wake();
}

function listen(key: string, wake: () => void): () => void {
  let set = appendListeners.get(key);
  if (!set) appendListeners.set(key, (set = new Set()));
  set.add(wake);
  return () => {
    set!.delete(wake);
    if (set!.size === 0) appendListeners.delete(key);
  };
}

interface SubscriptionSource {
  readPage(after: Position): { events: RecordedEvent[]; searchedTo: Position };
  listen(wake: () => void): () => void;
  pollIntervalMs: number;
}

/** Catch up page by page, then wait for a wake-up (append here) or the poll (append elsewhere). */
class SqliteSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private wake: (() => void) | null = null;
  private pending = false;

  constructor(private readonly source: SubscriptionSource, from: Position, handler: EventHandler) {
    this.done = this.run(from, handler);
    // `done` is also returned by stop(); an unobserved rejection must not crash the process
    this.done.catch(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.done.catch(() => undefined);
  }

  private async run(from: Position, handler: EventHandler): Promise<void> {
    const unlisten = this.source.listen(() => {
      this.pending = true;
      this.wake?.();
    });
    try {
      let cursor = from;
      // let the caller finish wiring up before the first handler call
      await Promise.resolve();
      while (!this.stopped) {
        this.pending = false;
        const { events, searchedTo } = this.source.readPage(cursor);
        for (const event of events) {
          if (this.stopped) return;
          await handler(event);
          cursor = event.position;
        }
        if (searchedTo > cursor) cursor = searchedTo;
        if (events.length === 0 && !this.pending) await this.idle();
      }
    } finally {
      unlisten();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.source.pollIntervalMs);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wake = null;
        resolve();
      }
      this.wake = done;
      if (this.stopped) done();
    });
  }
}
