import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBusContract } from '../bus.contract';
import { silentBusLogger } from '../logger';
import { EmbeddedBus, EmbeddedBusOptions } from './embedded-bus';

// the same pragmas as openSqlite (libs/eventstore/src/sqlite/database.ts): WAL, NORMAL sync
function open(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

const options: EmbeddedBusOptions = { logger: silentBusLogger, retry: { initialMs: 50, maxMs: 1000 }, pollIntervalMs: 200 };

describeBusContract('embedded (SQLite file)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-bus-'));
  const file = join(dir, 'gauntlet.db');
  let db = open(file);
  let bus = new EmbeddedBus(db, options);
  return {
    bus,
    reopen: async () => {
      await bus.close();
      db.close();
      db = open(file);
      bus = new EmbeddedBus(db, options);
      return bus;
    },
    cleanup: async () => {
      await bus.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
