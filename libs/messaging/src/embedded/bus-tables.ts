import type Database from 'better-sqlite3';
import type { DeliveredMessage, Message } from '../bus';
import { partitionForKey } from './partitioner';

interface MessageRow {
  msg_offset: number;
  key: string;
  value: string;
  headers: string | null;
  not_before: number | null;
  timestamp: number;
}

/**
 * The embedded bus's durable state, in the deployment's shared SQLite file (tables prefixed
 * `bus_`): topics with their partition count, each partition's next offset, the messages, and
 * each consumer group's committed position per partition.
 */
export class BusTables {
  private readonly partitionCounts = new Map<string, number>();
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS bus_topics (
        topic TEXT PRIMARY KEY,
        partitions INTEGER NOT NULL CHECK (partitions > 0)
      );
      CREATE TABLE IF NOT EXISTS bus_partitions (
        topic TEXT NOT NULL,
        part INTEGER NOT NULL,
        next_offset INTEGER NOT NULL,
        PRIMARY KEY (topic, part)
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS bus_messages (
        topic TEXT NOT NULL,
        part INTEGER NOT NULL,
        msg_offset INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        headers TEXT,
        not_before INTEGER,
        timestamp INTEGER NOT NULL,
        PRIMARY KEY (topic, part, msg_offset)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS bus_messages_by_time ON bus_messages (timestamp);
      CREATE TABLE IF NOT EXISTS bus_group_offsets (
        group_id TEXT NOT NULL,
        topic TEXT NOT NULL,
        part INTEGER NOT NULL,
        next_offset INTEGER NOT NULL,
        PRIMARY KEY (group_id, topic, part)
      ) WITHOUT ROWID;
    `);
    this.statements = {
      topic: db.prepare<[string], { partitions: number }>('SELECT partitions FROM bus_topics WHERE topic = ?'),
      createTopic: db.prepare<[string, number]>('INSERT OR IGNORE INTO bus_topics (topic, partitions) VALUES (?, ?)'),
      createPartition: db.prepare<[string, number]>('INSERT OR IGNORE INTO bus_partitions (topic, part, next_offset) VALUES (?, ?, 0)'),
      takeOffset: db.prepare<[string, number], { taken: number }>(
        'UPDATE bus_partitions SET next_offset = next_offset + 1 WHERE topic = ? AND part = ? RETURNING next_offset - 1 AS taken',
      ),
      insert: db.prepare<[string, number, number, string, string, string | null, number | null, number]>(
        'INSERT INTO bus_messages (topic, part, msg_offset, key, value, headers, not_before, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      read: db.prepare<[string, number, number, number], MessageRow>(
        'SELECT msg_offset, key, value, headers, not_before, timestamp FROM bus_messages WHERE topic = ? AND part = ? AND msg_offset >= ? ORDER BY msg_offset LIMIT ?',
      ),
      end: db.prepare<[string, number], { next_offset: number }>('SELECT next_offset FROM bus_partitions WHERE topic = ? AND part = ?'),
      first: db.prepare<[string, number], { first: number | null }>('SELECT min(msg_offset) AS first FROM bus_messages WHERE topic = ? AND part = ?'),
      committed: db.prepare<[string, string, number], { next_offset: number }>(
        'SELECT next_offset FROM bus_group_offsets WHERE group_id = ? AND topic = ? AND part = ?',
      ),
      commit: db.prepare<[string, string, number, number]>(
        `INSERT INTO bus_group_offsets (group_id, topic, part, next_offset) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_id, topic, part) DO UPDATE SET next_offset = excluded.next_offset`,
      ),
      prune: db.prepare<[number]>('DELETE FROM bus_messages WHERE timestamp < ?'),
    };
  }

  /** Creates missing topics with `partitions` partitions; an existing topic keeps its count. */
  ensureTopics(topics: string[], partitions: number): void {
    this.db.transaction(() => {
      for (const topic of topics) {
        this.statements.createTopic.run(topic, partitions);
        const count = this.partitionCount(topic)!;
        for (let part = 0; part < count; part++) this.statements.createPartition.run(topic, part);
      }
    })();
  }

  /** null for a topic nobody created (another process may create it later, so misses are not cached) */
  partitionCount(topic: string): number | null {
    const known = this.partitionCounts.get(topic);
    if (known !== undefined) return known;
    const row = this.statements.topic.get(topic);
    if (!row) return null;
    this.partitionCounts.set(topic, row.partitions);
    return row.partitions;
  }

  /** One transaction: all of the messages are stored, or none. Returns the partitions written. */
  append(topic: string, messages: Message[], now: number): Set<number> {
    const count = this.partitionCount(topic);
    if (count === null) throw new Error(`unknown topic "${topic}": call ensureTopics first`);
    const written = new Set<number>();
    this.db.transaction(() => {
      for (const m of messages) {
        const part = partitionForKey(m.key, count);
        const { taken } = this.statements.takeOffset.get(topic, part)!;
        const headers = m.headers && Object.keys(m.headers).length > 0 ? JSON.stringify(m.headers) : null;
        this.statements.insert.run(topic, part, taken, m.key, m.value, headers, m.notBefore ?? null, now);
        written.add(part);
      }
    })();
    return written;
  }

  read(topic: string, part: number, from: number, limit: number): DeliveredMessage[] {
    return this.statements.read.all(topic, part, from, limit).map((row) => ({
      topic,
      partition: part,
      offset: String(row.msg_offset),
      key: row.key,
      value: row.value,
      headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
      ...(row.not_before !== null ? { notBefore: row.not_before } : {}),
      timestamp: row.timestamp,
    }));
  }

  /**
   * Where a group reads a partition from: its committed position, or for a group new to the
   * partition the first kept message ('earliest') or the end ('latest'). A new group's start is
   * committed at once, so messages published before its first commit survive a restart.
   */
  startPosition(group: string, topic: string, part: number, from: 'earliest' | 'latest'): number {
    const committed = this.statements.committed.get(group, topic, part);
    if (committed) return committed.next_offset;
    const end = this.statements.end.get(topic, part)?.next_offset ?? 0;
    const start = from === 'latest' ? end : (this.statements.first.get(topic, part)?.first ?? end);
    this.commit(group, topic, part, start);
    return start;
  }

  commit(group: string, topic: string, part: number, nextOffset: number): void {
    this.statements.commit.run(group, topic, part, nextOffset);
  }

  /** Retention by age, as Kafka's log.retention: offsets keep counting up after a prune. */
  pruneOlderThan(cutoff: number): number {
    return this.statements.prune.run(cutoff).changes;
  }

  ping(): void {
    this.db.prepare('SELECT 1').get();
  }
}
