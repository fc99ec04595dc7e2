import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, KafkaJSProtocolError, logLevel } from 'kafkajs';
import type { Bus } from '../bus';
import { describeBusContract, waitFor } from '@gauntlet/messaging/testing';
import { BusLogger, silentBusLogger, stderrBusLogger } from '../logger';
import { KafkaBus, KafkaBusOptions } from './kafka-bus';

const run = promisify(execFile);
const kafkaScript = join(__dirname, '../../../../infra/kafka.sh');
const brokers = process.env.KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean) ?? [];
const logger: BusLogger = process.env.BUS_DEBUG ? stderrBusLogger : silentBusLogger;

// quick heartbeats so rebalances settle in about a second; 6 s is the broker's minimum session
const options = (): KafkaBusOptions => ({
  brokers,
  clientId: 'gauntlet-test',
  logger,
  retry: { initialMs: 50, maxMs: 1000 },
  heartbeatIntervalMs: 500,
  sessionTimeoutMs: 6000,
  maxWaitTimeMs: 200,
});

/** Remembers the topics a case created, so cleanup deletes only those on a shared broker. */
function recordingTopics(bus: Bus, topics: Set<string>): Bus {
  return {
    ensureTopics: async (names) => {
      names.forEach((n) => topics.add(n));
      await bus.ensureTopics(names);
    },
    publish: (topic, messages) => bus.publish(topic, messages),
    consume: (names, consumeOptions, handler) => bus.consume(names, consumeOptions, handler),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}

async function deleteTopics(topics: Set<string>): Promise<void> {
  if (topics.size === 0) return;
  const admin = new Kafka({ clientId: 'gauntlet-test-cleanup', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [...topics], timeout: 5000 });
  } catch {
    // best effort: a leftover uniquely named topic harms nothing
  } finally {
    await admin.disconnect();
  }
}

if (brokers.length === 0) {
  console.log('kafka-bus.int.spec: skipped, KAFKA_BROKERS is not set (eval "$(infra/kafka.sh start)" starts a local broker)');
  describe.skip('KafkaBus', () => it('needs KAFKA_BROKERS', () => undefined));
} else {
  describeBusContract(
    `kafka (${brokers.join(',')})`,
    async () => {
      const topics = new Set<string>();
      let bus = new KafkaBus(options());
      return {
        bus: recordingTopics(bus, topics),
        reopen: async () => {
          await bus.close();
          bus = new KafkaBus(options());
          return recordingTopics(bus, topics);
        },
        cleanup: async () => {
          await bus.close();
          await deleteTopics(topics);
        },
      };
    },
    { timeoutMs: 40_000 },
  );

  describe('KafkaBus on a real broker', () => {
    it('answers ping, and refuses to publish to a topic nobody created', async () => {
      const bus = new KafkaBus(options());
      try {
        await bus.ping();
        await expect(bus.publish(`missing-${randomUUID().slice(0, 8)}`, [{ key: 'k', value: 'v' }])).rejects.toThrow(/unknown topic/);
      } finally {
        await bus.close();
      }
    }, 20_000);

    it('lets roles that start together ensure the same topics and consume at once', async () => {
      // the roles of a distributed deployment start side by side and each ensures the same
      // topics: one creates them, the others find them created and must still wait until their
      // partitions have leaders before subscribing
      const created = new Set<string>();
      for (let round = 0; round < 4; round++) {
        const topics = [0, 1, 2, 3, 4, 5].map((i) => `together-${round}-${i}-${randomUUID().slice(0, 8)}`);
        topics.forEach((t) => created.add(t));
        const buses = [0, 1, 2, 3, 4, 5].map(() => new KafkaBus(options()));
        try {
          await Promise.all(
            buses.map(async (bus, i) => {
              await bus.ensureTopics(topics);
              const consumer = await bus.consume(topics, { group: `together-${round}-${i}` }, async () => undefined);
              await bus.publish(topics[i], [{ key: 'k', value: String(i) }]);
              await consumer.stop();
            }),
          );
        } finally {
          await Promise.all(buses.map((b) => b.close()));
        }
      }
      await deleteTopics(created);
    }, 120_000);

    it('waits out a broker that does not know yet a topic it has just created', async () => {
      // a KRaft broker answers UNKNOWN_TOPIC_OR_PARTITION until its metadata cache has applied a
      // new topic; on a loaded machine that takes long enough to be seen (a dispatcher died of it)
      const realAdmin = Kafka.prototype.admin;
      let unknownAnswers = 0;
      const spy = jest.spyOn(Kafka.prototype, 'admin').mockImplementation(function (this: Kafka, ...args) {
        const admin = realAdmin.apply(this, args);
        const fetchTopicMetadata = admin.fetchTopicMetadata.bind(admin);
        admin.fetchTopicMetadata = async (request) => {
          if (unknownAnswers < 3) {
            unknownAnswers++;
            throw new KafkaJSProtocolError('This server does not host this topic-partition');
          }
          return fetchTopicMetadata(request);
        };
        return admin;
      });
      const topic = `lagging-${randomUUID().slice(0, 8)}`;
      const bus = new KafkaBus(options());
      try {
        await bus.ensureTopics([topic]);
        expect(unknownAnswers).toBe(3);
        const seen: string[] = [];
        const consumer = await bus.consume([topic], { group: `lagging-${randomUUID().slice(0, 8)}` }, async (m) => void seen.push(m.value));
        await bus.publish(topic, [{ key: 'k', value: 'after the lag' }]);
        await waitFor(() => seen.length > 0, 10_000, 'the message published after the lag');
        await consumer.stop();
        expect(seen).toEqual(['after the lag']);
      } finally {
        spy.mockRestore();
        await bus.close();
        await deleteTopics(new Set([topic]));
      }
    }, 60_000);

    it('loses no message when the broker restarts mid-stream', async () => {
      // a broker of its own (infra/kafka.sh instance "restart"): restarting the shared one would
      // break the test files running beside this one
      const ownBroker = { ...process.env, KAFKA_INSTANCE: 'restart', KAFKA_PORT: '9192', KAFKA_CONTROLLER_PORT: '9193' };
      const broker = (command: string) => run(kafkaScript, [command], { env: ownBroker });
      await broker('start');
      const topic = `restart-${randomUUID().slice(0, 8)}`;
      const bus = new KafkaBus({ ...options(), brokers: ['127.0.0.1:9192'] });
      const received = new Set<string>();
      try {
        await bus.ensureTopics([topic]);
        await bus.consume([topic], { group: `g-${randomUUID().slice(0, 8)}` }, async (m) => void received.add(m.value));

        const total = 120;
        let restart: Promise<unknown> | undefined;
        for (let i = 0; i < total; i++) {
          // the restart runs beside the publisher: sends made while the broker is down wait for it
          if (i === 40) restart = broker('stop').then(() => broker('start'));
          await bus.publish(topic, [{ key: `scan-${i % 10}`, value: `m${i}` }]);
          if (i < 60) await new Promise((r) => setTimeout(r, 25));
        }
        await restart;

        const deadline = Date.now() + 60_000;
        while (received.size < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        const missing = Array.from({ length: total }, (_, i) => `m${i}`).filter((v) => !received.has(v));
        expect(missing).toEqual([]);
      } finally {
        await bus.close();
        await broker('stop').catch(() => undefined);
      }
    }, 150_000);
  });
}
