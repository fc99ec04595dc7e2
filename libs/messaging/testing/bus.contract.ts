import { randomUUID } from 'node:crypto';
import type { Bus, Consumer, DeliveredMessage, Message } from '../src/bus';

/** One adapter under test, fresh for each case. */
export interface BusUnderTest {
  bus: Bus;
  /** closes the current bus and opens a new one on the same storage: a process restart */
  reopen?: () => Promise<Bus>;
  /** closes whatever is open and removes what the case created */
  cleanup: () => Promise<void>;
}

export interface BusContractOptions {
  /** per case (default 20 s); every wait inside a case ends well before it */
  timeoutMs?: number;
}

/**
 * What every Bus adapter promises (see bus.ts): the same cases run against the embedded bus and
 * against a real Kafka broker. Topic and group names are unique per case, so a shared broker
 * needs no cleaning between cases.
 */
export function describeBusContract(name: string, make: () => Promise<BusUnderTest>, options: BusContractOptions = {}): void {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const waitMs = Math.floor(timeoutMs * 0.7);

  describe(`Bus contract: ${name}`, () => {
    let sut: BusUnderTest;
    let bus: Bus;
    let consumers: Consumer[];

    beforeEach(async () => {
      sut = await make();
      bus = sut.bus;
      consumers = [];
    });

    afterEach(async () => {
      await Promise.all(consumers.map((c) => c.stop().catch(() => undefined)));
      await sut.cleanup();
    });

    async function consume(topic: string, group: string, handler: (m: DeliveredMessage) => Promise<void>): Promise<Consumer> {
      const consumer = await bus.consume([topic], { group }, handler);
      consumers.push(consumer);
      return consumer;
    }

    async function stop(consumer: Consumer): Promise<void> {
      consumers = consumers.filter((c) => c !== consumer);
      await consumer.stop();
    }

    async function restart(): Promise<void> {
      await Promise.all(consumers.map((c) => c.stop()));
      consumers = [];
      bus = await sut.reopen!();
    }

    it(
      'delivers a published message with its key, value and headers',
      async () => {
        const topic = unique('roundtrip');
        await bus.ensureTopics([topic]);
        await bus.ensureTopics([topic]); // idempotent
        const before = Date.now();
        await bus.publish(topic, [{ key: 'scan-1', value: '{"type":"ScanRequested"}', headers: { 'correlation-id': 'c-1', 'event-type': 'ScanRequested' } }]);
        const got: DeliveredMessage[] = [];
        await consume(topic, unique('g'), async (m) => void got.push(m));
        await waitFor(() => got.length >= 1, waitMs, 'the message');

        expect(got).toHaveLength(1);
        const [m] = got;
        expect(m).toMatchObject({ topic, key: 'scan-1', value: '{"type":"ScanRequested"}', headers: { 'correlation-id': 'c-1', 'event-type': 'ScanRequested' } });
        expect(m.notBefore).toBeUndefined();
        expect(Number.isInteger(m.partition) && m.partition >= 0).toBe(true);
        expect(m.offset).toMatch(/^\d+$/);
        expect(m.timestamp).toBeGreaterThanOrEqual(before - 1000);
        expect(m.timestamp).toBeLessThanOrEqual(Date.now() + 1000);
      },
      timeoutMs,
    );

    it(
      'keeps the order of the messages of one key, one handler call at a time per partition',
      async () => {
        const topic = unique('order');
        await bus.ensureTopics([topic]);
        const keys = ['target-a', 'target-b', 'target-c'];
        for (let round = 0; round < 3; round++) {
          const batch: Message[] = [];
          for (let i = 0; i < 10; i++) for (const key of keys) batch.push({ key, value: `${key}:${round * 10 + i}` });
          await bus.publish(topic, batch);
        }
        const got: DeliveredMessage[] = [];
        const running = new Map<number, number>();
        let overlap = false;
        await consume(topic, unique('g'), async (m) => {
          running.set(m.partition, (running.get(m.partition) ?? 0) + 1);
          if (running.get(m.partition)! > 1) overlap = true;
          await new Promise((r) => setImmediate(r));
          got.push(m);
          running.set(m.partition, running.get(m.partition)! - 1);
        });
        await waitFor(() => got.length >= 90, waitMs, '90 messages');

        for (const key of keys) {
          const ofKey = got.filter((m) => m.key === key);
          expect(ofKey.map((m) => m.value)).toEqual(Array.from({ length: 30 }, (_, i) => `${key}:${i}`));
          expect(new Set(ofKey.map((m) => m.partition)).size).toBe(1);
        }
        expect(overlap).toBe(false);
      },
      timeoutMs,
    );

    it(
      'gives every consumer group every message',
      async () => {
        const topic = unique('fanout');
        await bus.ensureTopics([topic]);
        const values = Array.from({ length: 20 }, (_, i) => `v${i}`);
        await bus.publish(topic, values.map((value, i) => ({ key: `k${i % 7}`, value })));
        const projector: string[] = [];
        const dispatcher: string[] = [];
        await consume(topic, unique('projector'), async (m) => void projector.push(m.value));
        await consume(topic, unique('dispatcher'), async (m) => void dispatcher.push(m.value));
        await waitFor(() => projector.length >= 20 && dispatcher.length >= 20, waitMs, 'both groups');

        expect([...projector].sort()).toEqual([...values].sort());
        expect([...dispatcher].sort()).toEqual([...values].sort());
      },
      timeoutMs,
    );

    it(
      "splits a topic between the consumers of one group, and hands a stopped consumer's partitions to the others",
      async () => {
        const topic = unique('split');
        const group = unique('scanners');
        await bus.ensureTopics([topic]);
        const byConsumer: Record<'first' | 'second', DeliveredMessage[]> = { first: [], second: [] };
        const first = await consume(topic, group, async (m) => void byConsumer.first.push(m));
        await consume(topic, group, async (m) => void byConsumer.second.push(m));

        // the membership is settled before anything is published: no rebalance, so no message twice
        const wave1 = Array.from({ length: 60 }, (_, i) => ({ key: `scan-${i}`, value: `a${i}` }));
        await bus.publish(topic, wave1);
        const all = () => [...byConsumer.first, ...byConsumer.second];
        await waitFor(() => new Set(all().map((m) => m.value)).size >= 60, waitMs, 'the first 60 messages');

        expect(all()).toHaveLength(60);
        expect(byConsumer.first.length).toBeGreaterThan(0);
        expect(byConsumer.second.length).toBeGreaterThan(0);
        const firstPartitions = new Set(byConsumer.first.map((m) => m.partition));
        expect(byConsumer.second.some((m) => firstPartitions.has(m.partition))).toBe(false);

        await stop(first);
        const seenByFirst = byConsumer.first.length;
        const wave2 = Array.from({ length: 60 }, (_, i) => ({ key: `scan-${i}`, value: `b${i}` }));
        await bus.publish(topic, wave2);
        const secondGot = () => new Set(byConsumer.second.map((m) => m.value).filter((v) => v.startsWith('b')));
        await waitFor(() => secondGot().size >= 60, waitMs, 'the second 60 messages at the remaining consumer');

        expect(byConsumer.first.length).toBe(seenByFirst);
        expect(secondGot().size).toBe(60);
      },
      timeoutMs,
    );

    it(
      'resumes a group after its last committed message when the bus is reopened',
      async () => {
        if (!sut.reopen) return skipped('reopen');
        const topic = unique('resume');
        const group = unique('g');
        await bus.ensureTopics([topic]);
        await bus.publish(topic, Array.from({ length: 5 }, (_, i) => ({ key: `k${i}`, value: `before-${i}` })));
        const firstRun: string[] = [];
        await consume(topic, group, async (m) => void firstRun.push(m.value));
        await waitFor(() => firstRun.length >= 5, waitMs, 'the first five');

        await restart();
        await bus.publish(topic, Array.from({ length: 3 }, (_, i) => ({ key: `k${i}`, value: `after-${i}` })));
        const secondRun: string[] = [];
        await consume(topic, group, async (m) => void secondRun.push(m.value));
        await waitFor(() => secondRun.length >= 3, waitMs, 'the three published after the restart');
        await settle(300);

        expect([...secondRun].sort()).toEqual(['after-0', 'after-1', 'after-2']);
      },
      timeoutMs,
    );

    it(
      'retries a failing handler with backoff, skipping nothing and keeping the order',
      async () => {
        const topic = unique('retry');
        await bus.ensureTopics([topic]);
        await bus.publish(topic, Array.from({ length: 5 }, (_, i) => ({ key: 'webhook-1', value: `m${i}` })));
        const calls: { value: string; at: number }[] = [];
        const done: string[] = [];
        let failuresLeft = 2;
        await consume(topic, unique('g'), async (m) => {
          calls.push({ value: m.value, at: Date.now() });
          if (m.value === 'm2' && failuresLeft-- > 0) throw new Error('receiver answered 503');
          done.push(m.value);
        });
        await waitFor(() => done.length >= 5, waitMs, 'all five after the retries');

        expect(done).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
        expect(calls.map((c) => c.value)).toEqual(['m0', 'm1', 'm2', 'm2', 'm2', 'm3', 'm4']);
        const m2 = calls.filter((c) => c.value === 'm2').map((c) => c.at);
        expect(m2[1] - m2[0]).toBeGreaterThan(0);
        expect(m2[2] - m2[1]).toBeGreaterThan(0);
      },
      timeoutMs,
    );

    it(
      'holds a message until its notBefore, keeping its key in order and other partitions flowing',
      async () => {
        const topic = unique('delay');
        await bus.ensureTopics([topic]);
        const got: { m: DeliveredMessage; at: number }[] = [];
        await consume(topic, unique('g'), async (m) => void got.push({ m, at: Date.now() }));
        const notBefore = Date.now() + 1000;
        await bus.publish(topic, [
          { key: 'webhook-late', value: 'retry-1', notBefore },
          { key: 'webhook-late', value: 'after-retry-1' },
          ...Array.from({ length: 12 }, (_, i) => ({ key: `webhook-${i}`, value: `now-${i}` })),
        ]);
        await waitFor(() => got.length >= 14, waitMs, 'all fourteen');

        const held = got.find((g) => g.m.value === 'retry-1')!;
        const follower = got.find((g) => g.m.value === 'after-retry-1')!;
        expect(held.at).toBeGreaterThanOrEqual(notBefore);
        expect(held.m.notBefore).toBe(notBefore);
        expect(got.indexOf(follower)).toBeGreaterThan(got.indexOf(held));
        const elsewhere = got.filter((g) => g.m.value.startsWith('now-') && g.m.partition !== held.m.partition);
        expect(elsewhere.length).toBeGreaterThan(0);
        for (const g of elsewhere) expect(g.at).toBeLessThan(notBefore);
      },
      timeoutMs,
    );

    it(
      'delivers a message that fell due while the bus was down once it is back',
      async () => {
        if (!sut.reopen) return skipped('reopen');
        const topic = unique('delay-restart');
        await bus.ensureTopics([topic]);
        const notBefore = Date.now() + 300;
        await bus.publish(topic, [{ key: 'webhook-1', value: 'retry-after-restart', notBefore }]);
        // a consumer that is up before the restart must not see it early either
        const early: number[] = [];
        await consume(topic, unique('early'), async () => void early.push(Date.now()));
        await settle(100);

        await restart();
        const got: { value: string; at: number }[] = [];
        await consume(topic, unique('g'), async (m) => void got.push({ value: m.value, at: Date.now() }));
        await waitFor(() => got.length >= 1, waitMs, 'the delayed message');

        expect(got.map((g) => g.value)).toEqual(['retry-after-restart']);
        expect(got[0].at).toBeGreaterThanOrEqual(notBefore);
        for (const at of early) expect(at).toBeGreaterThanOrEqual(notBefore);
      },
      timeoutMs,
    );
  });
}

function unique(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

function skipped(what: string): void {
  console.log(`bus contract: skipped, this adapter has no ${what}`);
}

function settle(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until the condition holds; fails the case, naming what never came, after `ms`. */
export async function waitFor(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await settle(20);
  }
}
