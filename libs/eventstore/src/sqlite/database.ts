import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export type SqliteDatabase = Database.Database;

/**
 * A SQLite file only its owner can read: it holds password hashes and sealed secrets. Its
 * directory is made owner-only when we create it; the file is made 0600 whoever created it
 * (SQLite gives its -wal and -shm files the same mode).
 */
export function privateFile(file: string): void {
  if (file === ':memory:') return;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/**
 * The embedded deployment keeps events, read models, checkpoints and the bus in one SQLite
 * file. WAL lets readers run beside the single writer. FULL sync: a commit
 * is on disk when it returns, so an append the client was told about survives a power loss, not
 * only a crash of the process (NORMAL would be enough for kill -9, not for the power going out);
 * bench/eventstore-appends.ts measures what it costs.
 */
export function openSqlite(file: string, options: { synchronous?: 'FULL' | 'NORMAL' } = {}): SqliteDatabase {
  privateFile(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}
