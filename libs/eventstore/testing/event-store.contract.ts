/**
 * The one contract every EventStore adapter passes. Call it from an adapter's
 * `*.int.spec.ts`; it uses jest's globals, so importing this file outside jest costs nothing.
 *
 * Every test works under its own random stream prefix and reads `$all` only after the head it saw
 * at the start, so the suite also runs against a shared server that already holds other events.
 */
import { randomUUID } from 'node:crypto';
import { EventStore, EventToAppend, Position, RecordedEvent, Subscription, WrongExpectedRevisionError } from '../src/event-store';
import { UpcastingEventStore } from '../src/upcasting';

export interface EventStoreUnderTest {
  store: EventStore;
  /** closes `store` and opens the same storage again (a restart); `cleanup` closes what it returned */
  reopen?: () => Promise<EventStore>;
  cleanup: () => Promise<void>;
}

/**
 * Bounds of a contract test and of its waits for deliveries: an adapter may talk to its engine over a
 * network, on a busy machine, so they are wider than jest's 5 s; a passing test ends as soon as it can.
 */
const TEST_MS = 30_000;
const WAIT_MS = 20_000;

export function describeEventStoreContract(name: string, make: () => Promise<EventStoreUnderTest>): void {
  describe(`EventStore contract: ${name}`, () => {
    let subject: EventStoreUnderTest;
    let store: EventStore;
    let prefix: string;
    let base: Position | undefined;
    const live: Subscription[] = [];

    beforeEach(async () => {
      subject = await make();
      store = subject.store;
      prefix = `t${randomUUID().slice(0, 8)}-`;
      base = (await store.headPosition()) ?? undefined;
    }, TEST_MS);

    afterEach(async () => {
      await Promise.all(live.splice(0).map((s) => s.stop()));
      await subject.cleanup();
    }, TEST_MS);

    const mine = () => ({ after: base, filter: { streamPrefixes: [prefix] } });
    const subscribe = (after: Position | undefined, handler: (e: RecordedEvent) => Promise<void>) => {
      const subscription = store.subscribeToAll({ after, filter: { streamPrefixes: [prefix] } }, handler);
      live.push(subscription);
      return subscription;
    };

    it('reads back what was appended: data, metadata, types, revisions, positions, recordedAt', async () => {
      const stream = `${prefix}scan-1`;
      const id = randomUUID();
      const before = Date.now();
      const data = { target: 'https://bot.example', probes: ['a', 'b'], depth: 3, nested: { ok: true, none: null }, text: 'ünïcødé ✓ "quoted"' };
      const metadata = { correlationId: 'c-1', actor: 'user-1', occurredAt: '2025-01-01T00:00:00.000Z' };
      const result = await store.append(
        stream,
        [
          { id, type: 'ScanRequested', data, metadata },
          { type: 'ScanStarted', data: { at: 1 }, metadata: { causationId: id } },
        ],
        { expectedRevision: 'no_stream' },
      );
      const after = Date.now();

      const events = await store.readStream(stream);
      expect(events).toHaveLength(2);
      expect(events[0]).toMatchObject({ id, streamId: stream, revision: 0, type: 'ScanRequested', data, metadata });
      expect(events[1]).toMatchObject({ streamId: stream, revision: 1, type: 'ScanStarted', data: { at: 1 }, metadata: { causationId: id } });
      expect(typeof events[1].id).toBe('string');
      expect(events[1].id).not.toBe(id);
      expect(typeof events[0].position).toBe('bigint');
      expect(events[1].position).toBeGreaterThan(events[0].position);
      expect(result).toEqual({ nextRevision: 1, position: events[1].position });
      for (const event of events) {
        const recorded = Date.parse(event.recordedAt);
        expect(new Date(recorded).toISOString()).toBe(event.recordedAt);
        // a server's clock may drift a little from ours
        expect(recorded).toBeGreaterThanOrEqual(before - 60_000);
        expect(recorded).toBeLessThanOrEqual(after + 60_000);
      }
      expect(await store.readStream(stream, { fromRevision: 1 })).toEqual([events[1]]);
      expect(await store.readStream(`${prefix}never-written`)).toEqual([]);
      expect(await store.readAll(mine())).toEqual(events);
    }, TEST_MS);

    it('enforces no_stream, stream_exists, a numeric revision and any', async () => {
      const stream = `${prefix}target-1`;
      const conflict = async (expectedRevision: Parameters<EventStore['append']>[2]['expectedRevision'], actual: number | 'no_stream') => {
        const error = await store.append(stream, [event('Nope')], { expectedRevision }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedRevisionError);
        expect(error).toMatchObject({ streamId: stream, expected: expectedRevision, actual });
      };

      await conflict('stream_exists', 'no_stream');
      await conflict(0, 'no_stream');
      expect(await store.readStream(stream)).toEqual([]);

      expect((await store.append(stream, [event('TargetRegistered')], { expectedRevision: 'no_stream' })).nextRevision).toBe(0);
      await conflict('no_stream', 0);
      expect((await store.append(stream, [event('TargetRenamed')], { expectedRevision: 'stream_exists' })).nextRevision).toBe(1);
      await conflict(0, 1);
      await conflict(2, 1);
      expect((await store.append(stream, [event('TargetRenamed'), event('TargetRenamed')], { expectedRevision: 1 })).nextRevision).toBe(3);
      expect((await store.append(stream, [event('TargetArchived')], { expectedRevision: 'any' })).nextRevision).toBe(4);
      expect((await store.append(`${prefix}target-2`, [event('TargetRegistered')], { expectedRevision: 'any' })).nextRevision).toBe(0);

      // a refused append writes nothing
      const types = (await store.readStream(stream)).map((e) => e.type);
      expect(types).toEqual(['TargetRegistered', 'TargetRenamed', 'TargetRenamed', 'TargetRenamed', 'TargetArchived']);
    }, TEST_MS);

    it('keeps revisions per stream and one global order across streams', async () => {
      const streams = ['a', 'b', 'c'].map((s) => `${prefix}scan-${s}`);
      const appended: string[] = [];
      for (let i = 0; i < 4; i++) {
        for (const stream of streams) {
          const type = `Step${i}`;
          await store.append(stream, [event(type, { stream, i })], { expectedRevision: i === 0 ? 'no_stream' : i - 1 });
          appended.push(`${stream}/${type}`);
        }
      }
      await store.append(streams[0], [event('Batch0'), event('Batch1'), event('Batch2')], { expectedRevision: 3 });
      appended.push(`${streams[0]}/Batch0`, `${streams[0]}/Batch1`, `${streams[0]}/Batch2`);

      const all = await store.readAll(mine());
      expect(all.map((e) => `${e.streamId}/${e.type}`)).toEqual(appended);
      expectStrictlyIncreasing(all.map((e) => e.position));
      for (const stream of streams) {
        const events = await store.readStream(stream);
        expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
        expectStrictlyIncreasing(events.map((e) => e.position));
        expect(events).toEqual(all.filter((e) => e.streamId === stream));
      }
    }, TEST_MS);

    it('reads $all after a position, up to maxCount, filtered by stream prefix and event type', async () => {
      await store.append(`${prefix}scan-1`, [event('ScanRequested'), event('ScanStarted')], { expectedRevision: 'no_stream' });
      await store.append(`${prefix}target-1`, [event('TargetRegistered')], { expectedRevision: 'no_stream' });
      await store.append(`${prefix}scan-2`, [event('ScanRequested')], { expectedRevision: 'no_stream' });
      const last = await store.append(`${prefix}webhook-1`, [event('WebhookRegistered'), event('ScanStarted')], { expectedRevision: 'no_stream' });
      const all = await store.readAll(mine());
      expect(all).toHaveLength(6);

      expect(await store.readAll({ ...mine(), after: all[1].position })).toEqual(all.slice(2));
      expect(await store.readAll({ ...mine(), maxCount: 2 })).toEqual(all.slice(0, 2));
      expect(await store.readAll({ ...mine(), after: all[2].position, maxCount: 2 })).toEqual(all.slice(3, 5));
      expect(await store.readAll({ ...mine(), after: all[5].position })).toEqual([]);

      const scans = await store.readAll({ after: base, filter: { streamPrefixes: [`${prefix}scan-`] } });
      expect(scans.map((e) => e.streamId)).toEqual([`${prefix}scan-1`, `${prefix}scan-1`, `${prefix}scan-2`]);
      const scansAndTargets = await store.readAll({ after: base, filter: { streamPrefixes: [`${prefix}scan-`, `${prefix}target-`] } });
      expect(scansAndTargets).toEqual(all.slice(0, 4));
      const started = await store.readAll({ after: base, filter: { streamPrefixes: [prefix], eventTypes: ['ScanStarted', 'TargetRegistered'] } });
      expect(started.map((e) => e.type)).toEqual(['ScanStarted', 'TargetRegistered', 'ScanStarted']);
      const both = await store.readAll({ after: base, filter: { streamPrefixes: [`${prefix}scan-`], eventTypes: ['ScanRequested'] }, maxCount: 1 });
      expect(both).toEqual([all[0]]);

      const head = await store.headPosition();
      expect(head).not.toBeNull();
      expect(head!).toBeGreaterThanOrEqual(last.position);
      expect(last.position).toBe(all[5].position);
    }, TEST_MS);

    it('delivers the backlog to a subscription, then new events live, in order', async () => {
      for (let i = 0; i < 3; i++) await store.append(`${prefix}scan-${i}`, [event('ScanRequested', { i })], { expectedRevision: 'no_stream' });
      const seen: RecordedEvent[] = [];
      subscribe(base, async (e) => {
        seen.push(e);
      });
      await eventually(() => expect(seen).toHaveLength(3));

      await store.append(`${prefix}scan-0`, [event('ScanStarted'), event('ScanCompleted')], { expectedRevision: 0 });
      await store.append(`${prefix}scan-1`, [event('ScanStarted')], { expectedRevision: 0 });
      await eventually(() => expect(seen).toHaveLength(6));
      expect(seen).toEqual(await store.readAll(mine()));
    }, TEST_MS);

    it('delivers to a subscription only what its filter asks for', async () => {
      const types: string[] = [];
      const filter = { streamPrefixes: [`${prefix}scan-`], eventTypes: ['ScanCompleted', 'ScanFailed'] };
      live.push(store.subscribeToAll({ after: base, filter }, async (e) => void types.push(`${e.streamId.slice(prefix.length)}/${e.type}`)));
      await store.append(`${prefix}scan-1`, [event('ScanStarted'), event('ScanCompleted')], { expectedRevision: 'no_stream' });
      await store.append(`${prefix}target-1`, [event('ScanCompleted')], { expectedRevision: 'no_stream' });
      await store.append(`${prefix}scan-2`, [event('ScanFailed')], { expectedRevision: 'no_stream' });
      await eventually(() => expect(types).toEqual(['scan-1/ScanCompleted', 'scan-2/ScanFailed']));
      await delay(50);
      expect(types).toHaveLength(2);
    }, TEST_MS);

    it('calls the handler one event at a time, and stop() waits for the running call', async () => {
      await store.append(`${prefix}scan-1`, [event('A'), event('B'), event('C'), event('D')], { expectedRevision: 'no_stream' });
      let running = 0;
      let maxRunning = 0;
      const seen: string[] = [];
      let stopped: Promise<void> | undefined;
      let finishedBeforeStopResolved = false;
      const subscription = subscribe(base, async (e) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        if (e.type === 'B') stopped = subscription.stop().then(() => void (finishedBeforeStopResolved = seen.includes('B')));
        await delay(20);
        seen.push(e.type);
        running--;
      });
      await eventually(() => expect(stopped).toBeDefined());
      await stopped;
      await subscription.done;
      expect(finishedBeforeStopResolved).toBe(true);
      await delay(50);
      expect(seen).toEqual(['A', 'B']);
      expect(maxRunning).toBe(1);
    }, TEST_MS);

    it('resumes from a checkpoint with no duplicates and no gaps', async () => {
      const stream = `${prefix}scan-1`;
      await store.append(stream, [event('E0'), event('E1'), event('E2')], { expectedRevision: 'no_stream' });
      const delivered: RecordedEvent[] = [];
      let checkpoint = base;
      const first = subscribe(checkpoint, async (e) => {
        delivered.push(e);
        checkpoint = e.position;
      });
      await eventually(() => expect(delivered).toHaveLength(3));
      await first.stop();

      await store.append(stream, [event('E3'), event('E4')], { expectedRevision: 2 });
      subscribe(checkpoint, async (e) => {
        delivered.push(e);
        checkpoint = e.position;
      });
      await store.append(stream, [event('E5')], { expectedRevision: 4 });
      await eventually(() => expect(delivered).toHaveLength(6));
      await delay(50);
      expect(delivered.map((e) => e.type)).toEqual(['E0', 'E1', 'E2', 'E3', 'E4', 'E5']);
      expect(delivered).toEqual(await store.readStream(stream));
    }, TEST_MS);

    it('ends the subscription when a handler throws, and a new one from the checkpoint delivers that event again', async () => {
      const stream = `${prefix}webhook-1`;
      await store.append(stream, [event('E0'), event('E1'), event('E2'), event('E3')], { expectedRevision: 'no_stream' });
      const handled: string[] = [];
      let checkpoint = base;
      const failure = new Error('receiver unreachable');
      const failing = subscribe(checkpoint, async (e) => {
        if (e.type === 'E2') throw failure;
        handled.push(e.type);
        checkpoint = e.position;
      });
      await expect(failing.done).rejects.toBe(failure);
      await store.append(stream, [event('E4')], { expectedRevision: 3 });
      await delay(50);
      expect(handled).toEqual(['E0', 'E1']);

      subscribe(checkpoint, async (e) => {
        handled.push(e.type);
        checkpoint = e.position;
      });
      await eventually(() => expect(handled).toEqual(['E0', 'E1', 'E2', 'E3', 'E4']));
    }, TEST_MS);

    it('lets exactly one of many concurrent appenders win each revision of a stream', async () => {
      const stream = `${prefix}scan-1`;
      await store.append(stream, [event('ScanRequested')], { expectedRevision: 'no_stream' });
      for (let revision = 0; revision < 4; revision++) {
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, (_, writer) => store.append(stream, [event('ProbeAttempted', { writer })], { expectedRevision: revision })),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(WrongExpectedRevisionError);
      }

      // writers that reload and retry on conflict all land eventually, each revision once
      const writers = 6;
      const perWriter = 4;
      await Promise.all(
        Array.from({ length: writers }, async (_, writer) => {
          for (let n = 0; n < perWriter; n++) {
            for (let attempt = 0; ; attempt++) {
              if (attempt > 200) throw new Error(`writer ${writer} starved`);
              const events = await store.readStream(stream);
              try {
                await store.append(stream, [event('ProbeAttempted', { writer, n })], { expectedRevision: events[events.length - 1].revision });
                break;
              } catch (e) {
                if (!(e instanceof WrongExpectedRevisionError)) throw e;
              }
            }
          }
        }),
      );
      const events = await store.readStream(stream);
      expect(events).toHaveLength(1 + 4 + writers * perWriter);
      expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
      expectStrictlyIncreasing(events.map((e) => e.position));
      const written = events.slice(5).map((e) => `${e.data.writer}/${e.data.n}`);
      expect(new Set(written).size).toBe(writers * perWriter);
    }, TEST_MS);

    it('lands every concurrent append to many streams with unique, increasing positions', async () => {
      const streams = 40;
      const results = await Promise.all(
        Array.from({ length: streams }, (_, i) =>
          store.append(
            `${prefix}scan-${i}`,
            Array.from({ length: 1 + (i % 3) }, (_, n) => event('ProbeAttempted', { i, n })),
            { expectedRevision: 'no_stream' },
          ),
        ),
      );
      const all = await store.readAll(mine());
      expect(all).toHaveLength(results.reduce((sum, r) => sum + r.nextRevision + 1, 0));
      expectStrictlyIncreasing(all.map((e) => e.position));
      const positions = new Set(all.map((e) => e.position));
      for (const r of results) expect(positions.has(r.position)).toBe(true);
      for (let i = 0; i < streams; i++) {
        const events = all.filter((e) => e.streamId === `${prefix}scan-${i}`);
        expect(events.map((e) => e.data)).toEqual(Array.from({ length: 1 + (i % 3) }, (_, n) => ({ i, n })));
      }
    }, TEST_MS);

    it('keeps everything across a restart and appends after it', async () => {
      if (!subject.reopen) {
        console.log(`${name}: no reopen given, restart not checked`);
        return;
      }
      const stream = `${prefix}account-1`;
      await store.append(stream, [event('AccountOpened'), event('ApiKeyIssued')], { expectedRevision: 'no_stream' });
      await store.append(`${prefix}target-1`, [event('TargetRegistered')], { expectedRevision: 'no_stream' });
      const before = await store.readAll(mine());
      const head = await store.headPosition();

      store = await subject.reopen();
      expect(await store.readAll(mine())).toEqual(before);
      expect(await store.readStream(stream)).toEqual(before.slice(0, 2));
      expect(await store.headPosition()).toBe(head);

      await expect(store.append(stream, [event('Nope')], { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      const next = await store.append(stream, [event('ApiKeyRevoked')], { expectedRevision: 1 });
      expect(next.nextRevision).toBe(2);
      expect(next.position).toBeGreaterThan(head!);
      const seen: string[] = [];
      subscribe(head!, async (e) => void seen.push(e.type));
      await eventually(() => expect(seen).toEqual(['ApiKeyRevoked']));
    }, TEST_MS);

    it('read through UpcastingEventStore, gives an event written in an old shape in the current one on every read, and keeps it as written', async () => {
      // version 1 said `name`; version 2 says `title`: the upcast is the reader's, the adapter stores what it is given
      const upcast = (e: RecordedEvent): RecordedEvent => (e.type === 'TargetRenamed' && 'name' in e.data ? { ...e, data: { title: e.data.name } } : e);
      const reading = new UpcastingEventStore(store, upcast);
      const stream = `${prefix}target-1`;
      await store.append(stream, [{ ...event('TargetRenamed', { name: 'old shape' }), metadata: { schemaVersion: 1 } }], { expectedRevision: 'no_stream' });
      await reading.append(stream, [{ ...event('TargetRenamed', { title: 'current shape' }), metadata: { schemaVersion: 2 } }], { expectedRevision: 0 });
      const current = [{ title: 'old shape' }, { title: 'current shape' }];

      const seen: RecordedEvent[] = [];
      live.push(reading.subscribeToAll(mine(), async (e) => void seen.push(e)));
      expect((await reading.readStream(stream)).map((e) => e.data)).toEqual(current);
      expect((await reading.readAll(mine())).map((e) => e.data)).toEqual(current);
      await eventually(() => expect(seen.map((e) => e.data)).toEqual(current));
      // only the data changed: ids, revisions, positions and metadata are the store's
      expect(seen).toEqual(await reading.readAll(mine()));
      expect(seen.map((e) => e.metadata.schemaVersion)).toEqual([1, 2]);
      expect((await store.readStream(stream)).map((e) => e.data)).toEqual([{ name: 'old shape' }, { title: 'current shape' }]);
      expect((await reading.recorded.readStream(stream)).map((e) => e.data)).toEqual([{ name: 'old shape' }, { title: 'current shape' }]);
    }, TEST_MS);
  });
}

function event(type: string, data: Record<string, unknown> = {}): EventToAppend {
  return { id: randomUUID(), type, data, metadata: { correlationId: 'contract' } };
}

function expectStrictlyIncreasing(positions: Position[]): void {
  for (let i = 1; i < positions.length; i++) expect(positions[i]).toBeGreaterThan(positions[i - 1]);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** retries an assertion until it passes or WAIT_MS went by (below the test's own bound, so the assertion's message shows) */
async function eventually(assertion: () => void, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await delay(5);
    }
  }
}
