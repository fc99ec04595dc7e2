/**
 * No EventStoreDB server runs here, so the adapter's own logic (revision mapping, paging `$all`,
 * exclusive `after`, stepping over system events, filters, stop and failure of subscriptions) is
 * run through the contract against a small in-memory stand-in for the 6.x client. The stand-in
 * follows the server's documented behaviour: `$all` reads include their start position,
 * subscriptions start after it, the server writes its own `$` events between ours, positions are
 * byte offsets (not 1, 2, 3), and the client's own error classes are thrown. It proves the
 * adapter against those assumptions; `eventstoredb-event-store.int.spec.ts` proves the assumptions
 * against a real server when EVENTSTORE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import {
  END,
  EventStoreDBClient,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type Filter,
  type Position,
} from '@eventstore/db-client';
import { describeEventStoreContract } from '../event-store.contract';
import { EventStore } from '../event-store';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

interface StoredRecord {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: unknown;
  isJson: true;
  created: Date;
  position: Position;
}

class InMemoryEsdb {
  readonly log: StoredRecord[] = [];
  private offset = 1000n;
  private appends = 0;
  private readonly listeners = new Set<() => void>();

  client(): EventStoreDBClient {
    const client = {
      appendToStream: async (streamName: string, events: any, options: { expectedRevision?: AppendExpectedRevision } = {}) =>
        this.append(streamName, Array.isArray(events) ? events : [events], options.expectedRevision ?? 'any'),
      readStream: (streamName: string, options: { fromRevision?: typeof START | bigint } = {}) => this.readStream(streamName, options.fromRevision),
      readAll: (options: { fromPosition?: Position | typeof START | typeof END; maxCount?: number; direction?: string }) => this.readAll(options),
      subscribeToAll: (options: { fromPosition?: Position | typeof START; filter?: Filter }) => this.subscribe(options),
      dispose: async () => undefined,
    };
    return client as unknown as EventStoreDBClient;
  }

  write(streamId: string, revision: bigint, type: string, data: unknown, metadata: unknown, id: string): StoredRecord {
    // positions are offsets in the transaction file: increasing, far apart, never 0..n
    this.offset += 137n + BigInt(Math.floor(Math.random() * 500));
    const record: StoredRecord = { streamId, id, revision, type, data, metadata, isJson: true, created: new Date(), position: { commit: this.offset, prepare: this.offset } };
    this.log.push(record);
    return record;
  }

  private currentRevision(streamId: string): bigint | typeof NO_STREAM {
    const last = this.log.filter((r) => r.streamId === streamId).pop();
    return last ? last.revision : NO_STREAM;
  }

  private async append(streamName: string, events: { id: string; type: string; data: unknown; metadata: unknown }[], expected: AppendExpectedRevision) {
    await Promise.resolve();
    const current = this.currentRevision(streamName);
    const ok =
      expected === 'any' ||
      (expected === NO_STREAM && current === NO_STREAM) ||
      (expected === STREAM_EXISTS && current !== NO_STREAM) ||
      (typeof expected === 'bigint' && current === expected);
    if (!ok) throw new WrongExpectedVersionError(undefined, { streamName, expected, current });
    // the server's own bookkeeping lands in $all between our events
    if (++this.appends % 3 === 0) this.write('$stats-127.0.0.1:2113', BigInt(this.appends), '$statsCollected', {}, {}, randomUUID());
    let revision = current === NO_STREAM ? -1n : current;
    let last!: StoredRecord;
    for (const e of events) {
      // what the wire does to JSON bodies
      last = this.write(streamName, ++revision, e.type, JSON.parse(JSON.stringify(e.data)), JSON.parse(JSON.stringify(e.metadata)), e.id);
    }
    this.listeners.forEach((wake) => wake());
    return { success: true, nextExpectedRevision: revision, position: last.position };
  }

  private async *readStream(streamName: string, fromRevision: typeof START | bigint = START) {
    await Promise.resolve();
    const records = this.log.filter((r) => r.streamId === streamName);
    if (records.length === 0) throw new StreamNotFoundError(undefined, streamName);
    for (const r of records) if (fromRevision === START || r.revision >= fromRevision) yield { event: { ...r } };
  }

  private async *readAll({ fromPosition = START, maxCount = Number.MAX_SAFE_INTEGER, direction = 'forwards' }: { fromPosition?: Position | typeof START | typeof END; maxCount?: number; direction?: string }) {
    await Promise.resolve();
    let records: StoredRecord[];
    if (direction === 'forwards') {
      // forwards from a position includes the record at it
      records = fromPosition === START ? this.log : fromPosition === END ? [] : this.log.filter((r) => r.position.commit >= (fromPosition as Position).commit);
    } else {
      const before = fromPosition === END ? this.log : fromPosition === START ? [] : this.log.filter((r) => r.position.commit < (fromPosition as Position).commit);
      records = [...before].reverse();
    }
    for (const r of records.slice(0, maxCount)) yield { event: { ...r }, commitPosition: r.position.commit };
  }

  private subscribe({ fromPosition = START, filter }: { fromPosition?: Position | typeof START; filter?: Filter }) {
    let closed = false;
    let wake: (() => void) | null = null;
    const notify = () => wake?.();
    this.listeners.add(notify);
    const passes = (r: StoredRecord) => {
      if (!filter) return true;
      const subject = filter.filterOn === 'streamName' ? r.streamId : r.type;
      return 'prefixes' in filter ? filter.prefixes.some((p) => subject.startsWith(p)) : new RegExp(filter.regex).test(subject);
    };
    const log = this.log;
    const listeners = this.listeners;
    async function* events() {
      // a subscription starts strictly after its position
      let next = fromPosition === START ? 0 : log.findIndex((r) => r.position.commit > (fromPosition as Position).commit);
      if (next === -1) next = log.length;
      while (!closed) {
        if (next < log.length) {
          const r = log[next++];
          if (passes(r)) yield { event: { ...r }, commitPosition: r.position.commit };
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    }
    const iterator = events();
    const end = () => {
      closed = true;
      listeners.delete(notify);
      notify();
    };
    return {
      [Symbol.asyncIterator]: () => iterator,
      unsubscribe: async () => end(),
      destroy: () => end(),
    };
  }
}

describeEventStoreContract('eventstoredb adapter on an in-memory stand-in for the client', async () => {
  const server = new InMemoryEsdb();
  let store: EventStore = new EventStoreDbEventStore(server.client());
  return {
    store,
    reopen: async () => {
      await store.close();
      store = new EventStoreDbEventStore(server.client());
      return store;
    },
    cleanup: () => store.close(),
  };
});

describe('EventStoreDbEventStore over many pages and system events', () => {
  it('pages through $all past pages of nothing but system events, and its head skips them', async () => {
    const server = new InMemoryEsdb();
    const store = new EventStoreDbEventStore(server.client());
    await store.append('scan-1', [{ type: 'ScanRequested', data: {}, metadata: {} }], { expectedRevision: 'no_stream' });
    const ours = server.log[server.log.length - 1].position.commit;
    // more than a page (500) of the server's own events, before and after one of ours
    for (let i = 0; i < 1200; i++) server.write('$stats', BigInt(i), '$statsCollected', {}, {}, randomUUID());
    expect(await store.headPosition()).toBe(ours);
    await store.append('scan-1', [{ type: 'ScanStarted', data: {}, metadata: {} }], { expectedRevision: 0 });
    const all = await store.readAll();
    expect(all.map((e) => e.type)).toEqual(['ScanRequested', 'ScanStarted']);
    expect(await store.readAll({ after: ours })).toEqual([all[1]]);
    await store.close();
  });
});
