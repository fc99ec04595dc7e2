/**
 * The EventStoreDB adapter through the real @eventstore/db-client, over gRPC on a real socket:
 * - always against the protocol stand-in (libs/eventstore/testing/eventstoredb-stand-in.ts), which
 *   speaks the part of EventStoreDB's protocol the adapter uses, as 23.10+ answers it;
 * - and against a real server whenever EVENTSTORE_URL is set, e.g.
 *   esdb://admin:changeit@127.0.0.1:2113?tls=false (the account must be allowed to read $all).
 * Both run the event store contract and the protocol facts the adapter is built on, so a stand-in
 * that answered differently from a real server would show as a failure in the real-server run.
 * Every test works under its own stream prefix: a server that already holds events is fine.
 */
import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  STREAM_EXISTS,
  StreamNotFoundError,
  streamNameFilter,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AppendExpectedRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { EventStoreDbStandIn, startEventStoreDbStandIn } from '../../testing/eventstoredb-stand-in';
import { describeEventStoreContract } from '@gauntlet/eventstore/testing';
import { EventStore } from '../event-store';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

// over gRPC, on a busy machine, a test's round trips can add up past jest's 5 s: bounded, but wider
jest.setTimeout(30_000);

let standIn: EventStoreDbStandIn;

beforeAll(async () => {
  standIn = await startEventStoreDbStandIn();
  console.log(`EventStoreDbEventStore: contract over gRPC, through @eventstore/db-client, to the protocol stand-in at ${standIn.url}`);
});

afterAll(async () => {
  console.log(`EventStoreDB stand-in served: ${JSON.stringify(standIn.calls())}`);
  await standIn.close();
});

const realServer = process.env.EVENTSTORE_URL;
const servers: [string, () => string][] = [['the protocol stand-in', () => standIn.url]];
if (realServer) servers.push(['the server at EVENTSTORE_URL', () => realServer]);
else console.log('EventStoreDbEventStore: EVENTSTORE_URL is not set, so no real EventStoreDB server is checked (the stand-in is)');

for (const [server, url] of servers) {
  describeEventStoreContract(`eventstoredb over gRPC to ${server}`, async () => {
    let store: EventStore = new EventStoreDbEventStore(url());
    return {
      store,
      reopen: async () => {
        await store.close();
        store = new EventStoreDbEventStore(url());
        return store;
      },
      cleanup: () => store.close(),
    };
  });

  describe(`what the EventStoreDB adapter relies on, as ${server} answers the client`, () => {
    let client: EventStoreDBClient;
    let prefix: string;
    const one = (type: string) => jsonEvent({ type, data: { type } });

    beforeEach(() => {
      client = EventStoreDBClient.connectionString(url());
      prefix = `f${randomUUID().slice(0, 8)}-`;
    });
    afterEach(() => client.dispose());

    it('refuses an append with a WrongExpectedVersionError naming the stream, the expected and the actual revision', async () => {
      const stream = `${prefix}target-1`;
      const refusal = (expectedRevision: AppendExpectedRevision) => client.appendToStream(stream, one('Nope'), { expectedRevision }).catch((e: unknown) => e);
      const expectRefusal = async (expectedRevision: AppendExpectedRevision, actualVersion: bigint | typeof NO_STREAM) => {
        const error = await refusal(expectedRevision);
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error).toMatchObject({ streamName: stream, expectedVersion: expectedRevision, actualVersion });
      };

      await expectRefusal(STREAM_EXISTS, NO_STREAM);
      await expectRefusal(1n, NO_STREAM);
      const written = await client.appendToStream(stream, [one('A'), one('B')], { expectedRevision: NO_STREAM });
      expect(written.nextExpectedRevision).toBe(1n);
      await expectRefusal(NO_STREAM, 1n);
      await expectRefusal(0n, 1n);
      await expectRefusal(2n, 1n);
    });

    it('answers a read of a stream never written with StreamNotFoundError', async () => {
      const missing = `${prefix}never-written`;
      const error = await collect(client.readStream(missing)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StreamNotFoundError);
      expect(error).toMatchObject({ streamName: missing });
    });

    it("puts an append's position on its last event, the same in stream and $all reads, with commit = prepare", async () => {
      const stream = `${prefix}scan-1`;
      const written = await client.appendToStream(stream, [one('A'), one('B'), one('C')], { expectedRevision: NO_STREAM });
      const events = (await collect(client.readStream(stream, { direction: FORWARDS }))).map((e) => e.event!);
      expect(events.map((e) => [e.type, e.revision])).toEqual([['A', 0n], ['B', 1n], ['C', 2n]]);
      for (const e of events) expect(e.position!.commit).toBe(e.position!.prepare);
      expect(events[0].position!.commit).toBeLessThan(events[1].position!.commit);
      expect(events[1].position!.commit).toBeLessThan(events[2].position!.commit);
      expect(written.position).toEqual(events[2].position);

      // forwards from a position starts with the event at it; backwards from one, with the event before it
      const forwards = await collect(client.readAll({ fromPosition: events[0].position!, maxCount: 3, direction: FORWARDS }));
      expect(forwards.map((r) => [r.event!.id, r.commitPosition])).toEqual(events.map((e) => [e.id, e.position!.commit]));
      const backwards = await collect(client.readAll({ fromPosition: events[2].position!, maxCount: 1, direction: BACKWARDS }));
      expect(backwards.map((r) => r.event!.id)).toEqual([events[1].id]);
    });

    it('starts a subscription to $all strictly after its position, confirms it once and says once that it caught up', async () => {
      const stream = `${prefix}scan-1`;
      const marker = await client.appendToStream(stream, one('Marker'), { expectedRevision: NO_STREAM });
      await client.appendToStream(stream, [one('B'), one('C')], { expectedRevision: 0n });
      const seen: string[] = [];
      let confirmations = 0;
      let caughtUp = 0;
      const subscription = client
        .subscribeToAll({ fromPosition: marker.position!, filter: streamNameFilter({ prefixes: [prefix] }) })
        .on('data', (e: ResolvedEvent) => void seen.push(e.event!.type))
        .on('confirmation', () => confirmations++)
        .on('caughtUp', () => caughtUp++);
      try {
        await until(() => caughtUp > 0 && seen.length === 2);
        await client.appendToStream(stream, one('D'), { expectedRevision: 2n });
        await until(() => seen.length === 3);
        expect(seen).toEqual(['B', 'C', 'D']);
        expect(confirmations).toBe(1);
        expect(caughtUp).toBe(1);
      } finally {
        await subscription.unsubscribe();
      }
    });
  });
}

describe('EventStoreDbEventStore on the protocol stand-in', () => {
  const prefix = () => `p${randomUUID().slice(0, 8)}-`;
  const event = (type: string) => ({ type, data: {}, metadata: {} });

  it('goes over the wire: features, then BatchAppend for appends and Read for stream reads, $all reads and subscriptions', async () => {
    const stream = `${prefix()}scan-1`;
    const store = new EventStoreDbEventStore(standIn.url);
    const before = standIn.calls();
    try {
      const written = await store.append(stream, [event('ScanRequested')], { expectedRevision: 'no_stream' });
      await store.readStream(stream);
      await store.readAll({ after: written.position });
      await store.headPosition();
      const seen: string[] = [];
      const subscription = store.subscribeToAll({ filter: { streamPrefixes: [stream] } }, async (e) => void seen.push(e.type));
      await until(() => seen.length === 1);
      await subscription.stop();
    } finally {
      await store.close();
    }
    const after = standIn.calls();
    const used = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - (before[k] ?? 0)]).filter(([, n]) => n !== 0));
    expect(used).toEqual({
      'ServerFeatures.GetSupportedMethods': 1,
      'Streams.BatchAppend (append)': 1,
      'Streams.Read (stream forwards)': 1,
      'Streams.Read ($all forwards)': 1,
      'Streams.Read ($all backwards)': 1,
      'Streams.Read (subscription to $all)': 1,
    });
  });

  it("pages through $all past pages of nothing but the server's own events, and its head steps over them", async () => {
    const stream = `${prefix()}scan-1`;
    const store = new EventStoreDbEventStore(standIn.url);
    try {
      const start = (await store.headPosition()) ?? undefined;
      const first = await store.append(stream, [event('ScanRequested')], { expectedRevision: 'no_stream' });
      // more than two pages (500) of the server's own events after ours
      standIn.writeSystemEvents(1200);
      expect(await store.headPosition()).toBe(first.position);
      await store.append(stream, [event('ScanStarted')], { expectedRevision: 0 });
      expect((await store.readAll({ after: first.position })).map((e) => e.type)).toEqual(['ScanStarted']);
      expect((await store.readAll({ after: start, filter: { streamPrefixes: [stream] } })).map((e) => e.type)).toEqual(['ScanRequested', 'ScanStarted']);
    } finally {
      await store.close();
    }
  });

  it('closes after finding the head: the read that found it is not left half-consumed', async () => {
    const stream = `${prefix()}scan-1`;
    const store = new EventStoreDbEventStore(standIn.url);
    const written = await store.append(stream, [event('A'), event('B'), event('C')], { expectedRevision: 'no_stream' });
    expect(await store.headPosition()).toBe(written.position);
    // by the time later answers arrive on the connection, the head read has had all of its own
    await store.append(stream, [event('D')], { expectedRevision: 2 });
    expect(await store.readStream(stream)).toHaveLength(4);
    // an open read would keep this waiting past the test's time-out
    await store.close();
  });

  it('refuses what it does not speak, and positions where no record starts', async () => {
    const client = EventStoreDBClient.connectionString(standIn.url);
    try {
      const stream = `${prefix()}scan-1`;
      const { position } = await client.appendToStream(stream, jsonEvent({ type: 'A', data: {} }));
      await expect(collect(client.readStream(stream, { direction: BACKWARDS }))).rejects.toThrow(/outside the protocol subset/);
      await expect(collect(client.readAll({ fromPosition: { commit: position!.commit + 1n, prepare: position!.prepare + 1n } }))).rejects.toThrow(/invalid position/);
      await expect(collect(client.readAll({ fromPosition: { commit: position!.commit, prepare: 0n } }))).rejects.toThrow(/invalid position/);
    } finally {
      await client.dispose();
    }
  });
});

async function collect<T extends ResolvedEvent | AllStreamResolvedEvent>(read: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of read) out.push(e);
  return out;
}

/** waits for a condition, for at most 20 s (below the tests' 30 s, so the failure says what it waited for) */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met within 20 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}
