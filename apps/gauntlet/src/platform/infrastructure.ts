import { join } from 'node:path';
import { upcastEvent } from '@gauntlet/domain';
import { EventStore, openSqlite, SqliteEventStore, EventStoreDbEventStore, UpcastingEventStore } from '@gauntlet/eventstore';
import { DocumentStore, SqliteDocumentStore, connectMongoDocumentStore } from '@gauntlet/read-models';
import { Bus, EmbeddedBus, KafkaBus, namespaced } from '@gauntlet/messaging';
import { BudgetStore, connectMongoBudgetStore, SqliteBudgetStore } from '@gauntlet/auth';
import type { Logger } from 'pino';
import type { Config } from '../config/config';

export interface Infrastructure {
  /** `embedded` (one SQLite file) or `distributed` (EventStoreDB, MongoDB, Kafka) per engine */
  kinds: { events: 'sqlite' | 'eventstoredb'; documents: 'sqlite' | 'mongodb'; bus: 'embedded' | 'kafka' };
  /**
   * the log, every event read in its type's current shape (`upcastEvent`): what every reader reads;
   * `events.recorded` is the log as written, for the audit trail alone
   */
  events: UpcastingEventStore;
  documents: DocumentStore;
  bus: Bus;
  /**
   * The limits' counters, shared by every api process: in MongoDB when MONGODB_URL is set, else
   * in DATA_DIR/limits.db. Opened on first use (only the api counts).
   */
  budgets(): Promise<BudgetStore>;
  close(): Promise<void>;
}

/**
 * Picks each engine from configuration: EVENTSTORE_URL, MONGODB_URL and KAFKA_BROKERS each switch
 * one engine to its server; whatever is unset stays embedded in DATA_DIR/gauntlet.db.
 */
export async function openInfrastructure(config: Config, log: Logger): Promise<Infrastructure> {
  const needsSqlite = !config.eventstoreUrl || !config.mongodbUrl || !config.kafkaBrokers;
  const db = needsSqlite ? openSqlite(join(config.dataDir, 'gauntlet.db')) : null;

  const recorded: EventStore = config.eventstoreUrl ? new EventStoreDbEventStore(config.eventstoreUrl) : new SqliteEventStore(db!);
  const events = new UpcastingEventStore(recorded, upcastEvent);
  const documents: DocumentStore = config.mongodbUrl ? await connectMongoDocumentStore(config.mongodbUrl, config.mongodbDatabase) : new SqliteDocumentStore(db!);
  const bus: Bus = namespaced(
    config.kafkaBrokers ? new KafkaBus({ brokers: config.kafkaBrokers, clientId: 'gauntlet', partitions: config.kafkaPartitions, sessionTimeoutMs: config.kafkaSessionTimeoutMs, logger: log }) : new EmbeddedBus(db!),
    config.busNamespace,
  );

  let budgets: Promise<BudgetStore> | null = null;
  const openBudgets = () =>
    (budgets ??= config.mongodbUrl ? connectMongoBudgetStore(config.mongodbUrl, config.mongodbDatabase) : Promise.resolve(new SqliteBudgetStore(join(config.dataDir, 'limits.db'))));

  log.info(
    { events: config.eventstoreUrl ? 'eventstoredb' : 'sqlite', documents: config.mongodbUrl ? 'mongodb' : 'sqlite', bus: config.kafkaBrokers ? 'kafka' : 'embedded', dataDir: config.dataDir },
    'infrastructure opened',
  );
  return {
    kinds: {
      events: config.eventstoreUrl ? 'eventstoredb' : 'sqlite',
      documents: config.mongodbUrl ? 'mongodb' : 'sqlite',
      bus: config.kafkaBrokers ? 'kafka' : 'embedded',
    },
    events,
    documents,
    bus,
    budgets: openBudgets,
    async close() {
      if (budgets) await (await budgets.catch(() => null))?.close().catch(() => undefined);
      await bus.close().catch(() => undefined);
      await events.close().catch(() => undefined);
      await documents.close().catch(() => undefined);
      db?.close();
    },
  };
}
