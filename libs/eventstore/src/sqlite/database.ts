import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

/**
 * The embedded deployment keeps events, read models, checkpoints and the bus in one SQLite
 * file (design.md section 1). WAL lets readers run beside the single writer; NORMAL sync in WAL
 * mode is durable across process crashes (kill -9), which is what the embedded mode promises.
 */
export function openSqlite(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}
