import { Admin, Consumer as KafkaConsumer, EachMessagePayload, Kafka, logLevel, Partitioners, Producer } from 'kafkajs';
import type { Bus, ConsumeOptions, Consumer, Message, MessageHandler } from '../bus';
import { BusLogger, errorFields, stderrBusLogger } from '../logger';
import { defaultRetryBackoff, retryDelay, RetryBackoff } from '../retry-backoff';
import { assertPublishable, assertTopicNames } from '../topics';
import { fromKafkaMessage, nextOffset, toKafkaMessage } from './kafka-messages';
import { busLogCreator } from './log-creator';
import { trackedSockets } from './tracked-sockets';

export interface KafkaBusOptions {
  brokers: string[];
  clientId?: string;
  /** partitions of a topic created by ensureTopics (config KAFKA_PARTITIONS, default 6) */
  partitions?: number;
  /** replicas of a topic created by ensureTopics (default 1: the single-node broker of infra/) */
  replicationFactor?: number;
  logger?: BusLogger;
  /** wait between retries of a failing handler (default 200 ms doubling to 30 s) */
  retry?: RetryBackoff;
  /** partitions one consumer handles at the same time (default 6) */
  partitionsConsumedConcurrently?: number;
  /** group session: a consumer silent this long is removed from its group (config KAFKA_SESSION_TIMEOUT_MS, default 30 s; broker minimum 6 s) */
  sessionTimeoutMs?: number;
  /** how often a consumer heartbeats, which is also how fast it notices a rebalance (default 3 s) */
  heartbeatIntervalMs?: number;
  /** longest a fetch waits for data; bounds how late a paused partition resumes (default 500 ms) */
  maxWaitTimeMs?: number;
  /** consume() resolves once the consumer joined its group, or after this long (default 30 s) */
  joinTimeoutMs?: number;
}

/**
 * The Bus on Apache Kafka through kafkajs. Publishing is keyed, idempotent and acknowledged by
 * all in-sync replicas. Consumers commit a message's offset only after its handler resolved; a
 * failing message, or one whose notBefore is still ahead, pauses its partition and seeks back to
 * it, and the partition resumes after the backoff or when the message is due: nothing is skipped,
 * and other partitions keep flowing. kafkajs reconnects through broker restarts; a consumer that
 * kafkajs gives up on is started again here.
 */
export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly log: BusLogger;
  private readonly consumers = new Set<KafkaGroupConsumer>();
  private readonly knownTopics = new Set<string>();
  private producer: Promise<Producer> | undefined;
  private admin: Promise<Admin> | undefined;
  private closed = false;
  private readonly sockets = trackedSockets();

  constructor(private readonly options: KafkaBusOptions) {
    if (!options.brokers?.length) throw new TypeError('KafkaBus needs at least one broker');
    this.log = options.logger ?? stderrBusLogger;
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'gauntlet',
      brokers: options.brokers,
      logLevel: logLevel.WARN,
      logCreator: busLogCreator(this.log, () => this.closed),
      connectionTimeout: 3000,
      socketFactory: this.sockets.factory,
      // a broker restart takes seconds: keep retrying for about half a minute before giving up a request
      retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: 10 },
    });
  }

  async ensureTopics(topics: string[]): Promise<void> {
    this.assertOpen();
    assertTopicNames(topics);
    const wanted = [...new Set(topics)];
    if (wanted.length === 0) return;
    const admin = await this.connectedAdmin();
    const existing = new Set(await admin.listTopics());
    const missing = wanted.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      // Leaders are awaited below, not by kafkajs: its wait gives up at the first
      // UNKNOWN_TOPIC_OR_PARTITION, which a KRaft broker answers until its metadata cache has
      // applied the new topic, and it does not wait at all when another process created the
      // topic a moment ago ("already exists").
      await admin.createTopics({
        waitForLeaders: false,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: this.options.partitions ?? 6,
          replicationFactor: this.options.replicationFactor ?? 1,
        })),
      });
    }
    await this.awaitLeaders(admin, wanted);
    for (const t of wanted) this.knownTopics.add(t);
  }

  /**
   * A topic is usable once every partition has a leader; a freshly created one can be listed
   * (or reported as existing) before that, and a consumer subscribing then fails with
   * UNKNOWN_TOPIC_OR_PARTITION. Bounded: gives up after about 30 s.
   */
  private async awaitLeaders(admin: Admin, topics: string[]): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      try {
        const { topics: described } = await admin.fetchTopicMetadata({ topics });
        const led = described.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
        if (led && described.length === topics.length) return;
      } catch (error) {
        if (Date.now() + wait > deadline) throw error;
      }
      if (Date.now() + wait > deadline) throw new Error(`Kafka topics have no leaders yet: ${topics.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  async publish(topic: string, messages: Message[]): Promise<void> {
    this.assertOpen();
    assertPublishable(topic, messages);
    if (messages.length === 0) return;
    await this.assertTopicExists(topic);
    const producer = await this.connectedProducer();
    await producer.send({ topic, acks: -1, messages: messages.map(toKafkaMessage) });
  }

  async consume(topics: string[], options: ConsumeOptions, handler: MessageHandler): Promise<Consumer> {
    this.assertOpen();
    assertTopicNames(topics);
    if (!options.group) throw new TypeError('a consumer group is required');
    const consumer = new KafkaGroupConsumer(this.kafka, [...new Set(topics)], options, handler, this.log, {
      retry: this.options.retry ?? defaultRetryBackoff,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 6,
      sessionTimeout: this.options.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 3000,
      maxWaitTimeInMs: this.options.maxWaitTimeMs ?? 500,
      joinTimeoutMs: this.options.joinTimeoutMs ?? 30_000,
    });
    this.consumers.add(consumer);
    try {
      await consumer.start();
    } catch (error) {
      this.consumers.delete(consumer);
      await consumer.stop();
      throw error;
    }
    return {
      stop: async () => {
        this.consumers.delete(consumer);
        await consumer.stop();
      },
    };
  }

  /** Bounded: readiness checks must answer even when the broker does not. */
  async ping(): Promise<void> {
    this.assertOpen();
    const admin = await withTimeout(this.connectedAdmin(), 5000, 'Kafka did not answer');
    await withTimeout(admin.describeCluster(), 5000, 'Kafka did not answer');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const consumers = [...this.consumers];
    this.consumers.clear();
    await Promise.all(consumers.map((c) => c.stop()));
    await Promise.all([
      this.producer?.then((p) => p.disconnect()).catch(() => undefined),
      this.admin?.then((a) => a.disconnect()).catch(() => undefined),
    ]);
    const leftOpen = this.sockets.closeAll();
    if (leftOpen > 0) this.log.debug({ sockets: leftOpen }, 'kafka sockets left open by kafkajs were closed');
  }

  /**
   * The idempotent producer retries without end (fewer retries could break its sequence
   * numbers), which would turn a publish to a missing topic into a hang: so a topic is looked
   * up once before its first publish.
   */
  private async assertTopicExists(topic: string): Promise<void> {
    if (this.knownTopics.has(topic)) return;
    const admin = await this.connectedAdmin();
    for (const known of await admin.listTopics()) this.knownTopics.add(known);
    if (!this.knownTopics.has(topic)) throw new Error(`unknown topic "${topic}": call ensureTopics first`);
  }

  private connectedProducer(): Promise<Producer> {
    this.producer ??= this.connect(
      this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        // through a broker restart a publish waits for the broker instead of failing
        retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: Number.MAX_SAFE_INTEGER },
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
      }),
      () => (this.producer = undefined),
    );
    return this.producer;
  }

  private connectedAdmin(): Promise<Admin> {
    this.admin ??= this.connect(this.kafka.admin(), () => (this.admin = undefined));
    return this.admin;
  }

  /** A failed connect is forgotten, so the next call tries again instead of failing forever. */
  private async connect<T extends { connect(): Promise<void> }>(client: T, forget: () => void): Promise<T> {
    try {
      await client.connect();
      return client;
    } catch (error) {
      forget();
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the bus is closed');
  }
}

interface GroupConsumerSettings {
  retry: RetryBackoff;
  partitionsConsumedConcurrently: number;
  sessionTimeout: number;
  heartbeatInterval: number;
  maxWaitTimeInMs: number;
  joinTimeoutMs: number;
}

/** One `consume` call: a kafkajs consumer, replaced by a fresh one if kafkajs stops for good. */
class KafkaGroupConsumer {
  private current: KafkaConsumer | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private restarts = 0;
  /** partitions paused until a retry or a notBefore is due */
  private readonly held = new Map<string, NodeJS.Timeout>();
  private readonly failures = new Map<string, { offset: string; attempts: number }>();

  constructor(
    private readonly kafka: Kafka,
    private readonly topics: string[],
    private readonly options: ConsumeOptions,
    private readonly handler: MessageHandler,
    private readonly log: BusLogger,
    private readonly settings: GroupConsumerSettings,
  ) {}

  async start(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.options.group,
      allowAutoTopicCreation: false,
      sessionTimeout: this.settings.sessionTimeout,
      heartbeatInterval: this.settings.heartbeatInterval,
      maxWaitTimeInMs: this.settings.maxWaitTimeInMs,
      retry: { initialRetryTime: 300, maxRetryTime: 5000, retries: 10, restartOnFailure: async () => !this.stopping },
    });
    this.current = consumer;
    let joined: () => void = () => undefined;
    const join = new Promise<void>((resolve) => (joined = resolve));
    consumer.on(consumer.events.GROUP_JOIN, () => {
      // kafkajs can finish a join that was under way when it was told to disconnect, and would
      // then keep consuming: a consumer joining after stop() is disconnected again
      if (this.stopping || consumer !== this.current) {
        void consumer.disconnect().catch(() => undefined);
        return;
      }
      this.restarts = 0;
      joined();
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      // kafkajs restarts itself after retriable errors; after others (e.g. no broker reachable
      // for a while) it stops for good, so a new consumer takes over
      if (!payload.restart && !this.stopping) this.restartLater(payload.error);
    });
    await consumer.connect();
    await consumer.subscribe({ topics: this.topics, fromBeginning: (this.options.from ?? 'earliest') === 'earliest' });
    // stop() may have run while this start was connecting: it must not leave a consumer behind
    if (this.stopping) return consumer.disconnect();
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.settings.partitionsConsumedConcurrently,
      eachMessage: (payload) => this.eachMessage(consumer, payload),
    });
    const timer = setTimeout(joined, this.settings.joinTimeoutMs);
    await join;
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    for (const timer of this.held.values()) clearTimeout(timer);
    this.held.clear();
    // disconnect waits for a running handler (and its commit) before leaving the group
    await this.current?.disconnect().catch((error) => this.log.warn(errorFields(error), 'kafka consumer disconnect failed'));
  }

  private async eachMessage(consumer: KafkaConsumer, { topic, partition, message, pause }: EachMessagePayload): Promise<void> {
    if (this.stopping || consumer !== this.current) return;
    const delivered = fromKafkaMessage(topic, partition, message);
    const due = (delivered.notBefore ?? 0) - Date.now();
    if (due > 0) return this.hold(consumer, topic, partition, message.offset, due, pause);

    const slot = `${topic}:${partition}`;
    try {
      await this.handler(delivered);
    } catch (error) {
      const previous = this.failures.get(slot);
      const attempts = previous?.offset === message.offset ? previous.attempts + 1 : 1;
      this.failures.set(slot, { offset: message.offset, attempts });
      this.log.warn({ ...errorFields(error), topic, partition, offset: message.offset, attempt: attempts, group: this.options.group }, 'bus handler failed; the message will be retried');
      return this.hold(consumer, topic, partition, message.offset, retryDelay(attempts, this.settings.retry), pause);
    }
    this.failures.delete(slot);
    try {
      await consumer.commitOffsets([{ topic, partition, offset: nextOffset(message.offset) }]);
    } catch (error) {
      // typically a rebalance took the partition: its next reader starts from the last commit
      // and may see this message again (at-least-once)
      this.log.warn({ ...errorFields(error), topic, partition, offset: message.offset, group: this.options.group }, 'bus offset commit failed');
    }
  }

  /** Pauses the partition at `offset` and resumes it after `ms`; later messages wait behind it. */
  private hold(consumer: KafkaConsumer, topic: string, partition: number, offset: string, ms: number, pause: () => () => void): void {
    const resume = pause();
    consumer.seek({ topic, partition, offset });
    const slot = `${topic}:${partition}`;
    clearTimeout(this.held.get(slot));
    this.held.set(
      slot,
      setTimeout(() => {
        this.held.delete(slot);
        if (!this.stopping) resume();
      }, ms),
    );
  }

  private restartLater(error: unknown): void {
    this.restarts++;
    const wait = retryDelay(this.restarts, { initialMs: 1000, maxMs: 30_000 });
    this.log.warn({ ...errorFields(error), group: this.options.group, restartInMs: wait }, 'kafka consumer stopped; starting a new one');
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      const previous = this.current;
      void previous
        ?.disconnect()
        .catch(() => undefined)
        .then(() => (this.stopping ? undefined : this.start()))
        .catch((failure: unknown) => {
          if (!this.stopping) this.restartLater(failure);
        });
    }, wait);
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
