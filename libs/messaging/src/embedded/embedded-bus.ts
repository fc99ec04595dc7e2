import type Database from 'better-sqlite3';
import type { Bus, ConsumeOptions, Consumer, DeliveredMessage, Message, MessageHandler } from '../bus';
import { BusLogger, errorFields, stderrBusLogger } from '../logger';
import { defaultRetryBackoff, retryDelay, RetryBackoff } from '../retry-backoff';
import { assertPublishable, assertTopicNames } from '../topics';
import { assignPartitions } from './assignment';
import { BusTables } from './bus-tables';
import { Wakeup } from './wakeup';

export interface EmbeddedBusOptions {
  /** partitions of a topic created by ensureTopics (default 6, as KAFKA_PARTITIONS) */
  partitions?: number;
  /** how often an idle reader looks for messages written by another connection (default 500 ms) */
  pollIntervalMs?: number;
  /** wait between retries of a failing handler (default 200 ms doubling to 30 s) */
  retry?: RetryBackoff;
  /** messages older than this are deleted, as Kafka's retention (default 7 days) */
  retentionMs?: number;
  logger?: BusLogger;
}

const batchSize = 100;
const pruneEveryMs = 60 * 60 * 1000;

/**
 * The Bus on the deployment's SQLite file (tables `bus_*`): durable topics, per-key order
 * through partitions, consumer groups with committed offsets. Group membership is coordinated
 * in this process: consumers of one group share its partitions, each partition read by one
 * consumer at a time; a second process consuming the same group would not be coordinated.
 * Publishing wakes the readers of the topic at once; a short poll sees other writers.
 */
export class EmbeddedBus implements Bus {
  private readonly tables: BusTables;
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly log: BusLogger;
  private readonly partitions: number;
  private readonly pruneTimer: NodeJS.Timeout;
  private closed = false;

  constructor(db: Database.Database, private readonly options: EmbeddedBusOptions = {}) {
    this.tables = new BusTables(db);
    this.log = options.logger ?? stderrBusLogger;
    this.partitions = options.partitions ?? 6;
    if (!Number.isInteger(this.partitions) || this.partitions < 1) throw new RangeError('partitions must be a positive integer');
    this.prune();
    this.pruneTimer = setInterval(() => this.prune(), pruneEveryMs).unref();
  }

  async ensureTopics(topics: string[]): Promise<void> {
    this.assertOpen();
    assertTopicNames(topics);
    this.tables.ensureTopics(topics, this.partitions);
  }

  async publish(topic: string, messages: Message[]): Promise<void> {
    this.assertOpen();
    assertPublishable(topic, messages);
    if (messages.length === 0) return;
    const written = this.tables.append(topic, messages, Date.now());
    for (const group of this.groups.values()) group.published(topic, written);
  }

  async consume(topics: string[], options: ConsumeOptions, handler: MessageHandler): Promise<Consumer> {
    this.assertOpen();
    assertTopicNames(topics);
    if (!options.group) throw new TypeError('a consumer group is required');
    const counts = new Map<string, number>();
    for (const topic of new Set(topics)) {
      const count = this.tables.partitionCount(topic);
      if (count === null) throw new Error(`unknown topic "${topic}": call ensureTopics first`);
      counts.set(topic, count);
    }
    let group = this.groups.get(options.group);
    if (!group) {
      group = new ConsumerGroup(options.group, this.tables, this.log, {
        pollIntervalMs: this.options.pollIntervalMs ?? 500,
        retry: this.options.retry ?? defaultRetryBackoff,
      });
      this.groups.set(options.group, group);
    }
    const member = group.join([...counts.keys()], counts, options.from ?? 'earliest', handler);
    const owner = group;
    return { stop: () => owner.leave(member) };
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.tables.ping();
  }

  /** Stops every consumer (in-flight handlers finish and commit first). The db stays open: its owner closes it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.pruneTimer);
    await Promise.all([...this.groups.values()].map((g) => g.close()));
    this.groups.clear();
  }

  private prune(): void {
    try {
      const removed = this.tables.pruneOlderThan(Date.now() - (this.options.retentionMs ?? 7 * 24 * 60 * 60 * 1000));
      if (removed > 0) this.log.info({ removed }, 'bus retention removed old messages');
    } catch (error) {
      this.log.warn(errorFields(error), 'bus retention failed');
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the bus is closed');
  }
}

interface GroupSettings {
  pollIntervalMs: number;
  retry: RetryBackoff;
}

let nextMemberId = 1;

/** One consumer (a `consume` call): its handler and the handler calls still running. */
class Member {
  readonly id = nextMemberId++;
  private readonly running = new Set<Promise<boolean>>();

  constructor(
    readonly topics: string[],
    readonly from: 'earliest' | 'latest',
    private readonly handler: MessageHandler,
    private readonly log: BusLogger,
  ) {}

  /**
   * Hands one message to the handler and, only once it resolved, commits. Both count as one
   * piece of in-flight work, so stopping this consumer waits for the commit too.
   */
  process(message: DeliveredMessage, attempt: number, commit: () => void): Promise<boolean> {
    const work = Promise.resolve()
      .then(() => this.handler(message))
      .then(
        () => {
          commit();
          return true;
        },
        (error: unknown) => {
          this.log.warn(
            { ...errorFields(error), topic: message.topic, partition: message.partition, offset: message.offset, attempt },
            'bus handler failed; the message will be retried',
          );
          return false;
        },
      );
    this.running.add(work);
    return work.finally(() => this.running.delete(work));
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
  }
}

class ConsumerGroup {
  private readonly members = new Map<number, Member>();
  private readonly partitionCounts = new Map<string, number>();
  private readonly readers = new Map<string, PartitionReader>();

  constructor(
    readonly name: string,
    private readonly tables: BusTables,
    private readonly log: BusLogger,
    private readonly settings: GroupSettings,
  ) {}

  join(topics: string[], counts: Map<string, number>, from: 'earliest' | 'latest', handler: MessageHandler): Member {
    const member = new Member(topics, from, handler, this.log);
    for (const [topic, count] of counts) this.partitionCounts.set(topic, count);
    this.members.set(member.id, member);
    this.rebalance();
    return member;
  }

  /** The member's partitions go to the others at once; its running handlers finish and commit. */
  async leave(member: Member): Promise<void> {
    if (this.members.delete(member.id)) this.rebalance();
    await member.drain();
  }

  published(topic: string, partitions: Set<number>): void {
    for (const partition of partitions) this.readers.get(readerKey(topic, partition))?.wakeup.published();
  }

  async close(): Promise<void> {
    const members = [...this.members.values()];
    this.members.clear();
    this.rebalance();
    await Promise.all(members.map((m) => m.drain()));
    await Promise.all([...this.readers.values()].map((r) => r.stopped()));
  }

  private rebalance(): void {
    const plan = assignPartitions([...this.members.values()], this.partitionCounts);
    const planned = new Set<string>();
    for (const { topic, partition, member } of plan) {
      const key = readerKey(topic, partition);
      planned.add(key);
      let reader = this.readers.get(key);
      if (!reader) {
        reader = new PartitionReader(this.name, topic, partition, this.tables, this.log, this.settings);
        this.readers.set(key, reader);
      }
      reader.assign(this.members.get(member));
    }
    // a reader keeps its place in the map while unowned: a later owner reuses it, so two loops
    // never read one partition for one group
    for (const [key, reader] of this.readers) if (!planned.has(key)) reader.assign(undefined);
  }
}

function readerKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/**
 * Reads one partition for one group, in offset order, one message at a time, on behalf of
 * whichever member owns the partition now. A message waits for its notBefore (holding back
 * only this partition); a failing one is retried with backoff until it succeeds.
 */
class PartitionReader {
  readonly wakeup = new Wakeup();
  private owner: Member | undefined;
  private loop: Promise<void> | undefined;
  private position: number | undefined;
  private attempts = 0;

  constructor(
    private readonly group: string,
    private readonly topic: string,
    private readonly partition: number,
    private readonly tables: BusTables,
    private readonly log: BusLogger,
    private readonly settings: GroupSettings,
  ) {}

  assign(owner: Member | undefined): void {
    if (owner === this.owner) return;
    this.owner = owner;
    this.wakeup.control();
    if (owner && !this.loop) this.loop = this.run().finally(() => (this.loop = undefined));
  }

  async stopped(): Promise<void> {
    await this.loop;
  }

  private async run(): Promise<void> {
    try {
      while (this.owner) {
        const owner = this.owner;
        this.position ??= this.tables.startPosition(this.group, this.topic, this.partition, owner.from);
        const batch = this.tables.read(this.topic, this.partition, this.position, batchSize);
        if (batch.length === 0) {
          await this.wakeup.wait(this.settings.pollIntervalMs, true);
          continue;
        }
        await this.deliver(batch, owner);
      }
    } catch (error) {
      // the database went away under us (closed, disk error): nothing sensible to retry here
      this.log.error({ ...errorFields(error), topic: this.topic, partition: this.partition, group: this.group }, 'bus partition reader stopped');
      this.owner = undefined;
    }
  }

  /** Returns when the batch is done or must be re-read (owner changed, a wait, a failure). */
  private async deliver(batch: DeliveredMessage[], owner: Member): Promise<void> {
    for (const message of batch) {
      if (this.owner !== owner) return;
      const due = (message.notBefore ?? 0) - Date.now();
      if (due > 0) {
        // later messages of this partition wait behind it: per-key order is the promise
        await this.wakeup.wait(due, false);
        return;
      }
      const next = Number(message.offset) + 1;
      const done = await owner.process(message, this.attempts + 1, () =>
        this.tables.commit(this.group, this.topic, this.partition, next),
      );
      if (done) {
        this.position = next;
        this.attempts = 0;
      } else {
        this.attempts++;
        await this.wakeup.wait(retryDelay(this.attempts, this.settings.retry), false);
        return;
      }
    }
  }
}
