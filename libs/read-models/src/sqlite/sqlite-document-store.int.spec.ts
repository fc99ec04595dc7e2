import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@gauntlet/eventstore';
import { describeDocumentStoreContract } from '@gauntlet/read-models/testing';
import { SqliteDocumentStore } from './sqlite-document-store';

// a real file in WAL mode, as the embedded deployment opens it
describeDocumentStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-rm-'));
  const db = openSqlite(join(dir, 'gauntlet.db'));
  const store = new SqliteDocumentStore(db);
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteDocumentStore', () => {
  it('serves filtered, sorted pages from the declared index, not a table scan', async () => {
    const db = openSqlite(':memory:');
    const store = new SqliteDocumentStore(db);
    const scans = store.collection('scans');
    await scans.ensureIndex(['account_id', 'created_at']);
    await store.collection('other').ensureIndex(['account_id', 'created_at']);
    const plan = db
      .prepare(
        "EXPLAIN QUERY PLAN SELECT body FROM rm_documents WHERE collection = ? AND json_extract(body, '$.account_id') = ? ORDER BY json_extract(body, '$.created_at') DESC, id DESC LIMIT 20",
      )
      .all('scans', 'acc')
      .map((r) => (r as { detail: string }).detail)
      .join('\n');
    expect(plan).toMatch(/USING INDEX rm_ix_7363616e73_/); // 'scans' in hex: the index of this collection
    expect(plan).not.toMatch(/TEMP B-TREE/);
    db.close();
  });

  it('shares the database: close() leaves a borrowed connection open', async () => {
    const db = openSqlite(':memory:');
    await new SqliteDocumentStore(db).close();
    expect(db.open).toBe(true);
    db.close();
  });
});
