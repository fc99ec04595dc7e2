import type Database from 'better-sqlite3';
import { openSqlite } from '@gauntlet/eventstore';
import type { BudgetStore, BudgetWindow, Taken } from './budget-store';

/**
 * Budgets in a SQLite file of their own (DATA_DIR/limits.db), which every process given the same
 * DATA_DIR shares: a take is one IMMEDIATE transaction, so two processes never both get the last
 * unit. Its own file, not gauntlet.db: counting a request must not wait for an event append's
 * write lock, and counters need no fsync per commit (NORMAL: a process crash loses nothing, a
 * power loss at most the last counts).
 */
export class SqliteBudgetStore implements BudgetStore {
  private readonly db: Database.Database;
  private readonly takeTx: (key: string, window: BudgetWindow, want: number, limit: number) => Taken;
  private readonly giveBackStmt: Database.Statement;
  private readonly sweepStmt: Database.Statement;

  constructor(file: string) {
    this.db = openSqlite(file, { synchronous: 'NORMAL' });
    this.db.exec(`CREATE TABLE IF NOT EXISTS budgets (
      key TEXT NOT NULL, window_start INTEGER NOT NULL, window_end INTEGER NOT NULL, spent INTEGER NOT NULL,
      PRIMARY KEY (key, window_start)
    ) WITHOUT ROWID`);
    const read = this.db.prepare<[string, number], { spent: number }>('SELECT spent FROM budgets WHERE key = ? AND window_start = ?');
    const write = this.db.prepare(
      'INSERT INTO budgets (key, window_start, window_end, spent) VALUES (?, ?, ?, ?) ON CONFLICT (key, window_start) DO UPDATE SET spent = excluded.spent',
    );
    const tx = this.db.transaction((key: string, window: BudgetWindow, want: number, limit: number): Taken => {
      const spent = read.get(key, window.start)?.spent ?? 0;
      const granted = Math.max(0, Math.min(want, limit - spent));
      if (granted > 0) write.run(key, window.start, window.end, spent + granted);
      return { granted, spent: spent + granted };
    });
    this.takeTx = (key, window, want, limit) => tx.immediate(key, window, want, limit);
    this.giveBackStmt = this.db.prepare('UPDATE budgets SET spent = MAX(0, spent - ?) WHERE key = ? AND window_start = ?');
    this.sweepStmt = this.db.prepare('DELETE FROM budgets WHERE window_end <= ?');
  }

  async take(key: string, window: BudgetWindow, want: number, limit: number): Promise<Taken> {
    return this.takeTx(key, window, want, limit);
  }

  async giveBack(key: string, window: BudgetWindow, units: number): Promise<void> {
    this.giveBackStmt.run(units, key, window.start);
  }

  async sweep(now: number): Promise<void> {
    this.sweepStmt.run(now);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
