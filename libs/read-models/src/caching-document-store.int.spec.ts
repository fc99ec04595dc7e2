import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@gauntlet/eventstore';
import { CachingDocumentStore } from './caching-document-store';
import { describeDocumentStoreContract } from '@gauntlet/read-models/testing';
import type { Collection, Doc, DocumentStore } from './document-store';
import { SqliteDocumentStore } from './sqlite/sqlite-document-store';

// the decorator honours the port exactly, with caching on for every collection the contract uses
describeDocumentStoreContract('caching decorator over sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-cache-'));
  const db = openSqlite(join(dir, 'gauntlet.db'));
  const inner = new SqliteDocumentStore(db);
  const cachingEverything: DocumentStore = {
    collection: (name) => new CachingDocumentStore(inner, { collections: [name], enabled: () => true }).collection(name),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return {
    store: cachingEverything,
    cleanup: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('CachingDocumentStore', () => {
  /** an inner store that counts reads, and can hold one read until released */
  function counted() {
    const db = openSqlite(':memory:');
    const inner = new SqliteDocumentStore(db);
    let reads = 0;
    let hold: Promise<void> | null = null;
    const counting: DocumentStore = {
      collection: <T extends Doc>(name: string): Collection<T> => {
        const c = inner.collection<T>(name);
        return Object.assign(Object.create(c), {
          get: async (id: string) => {
            reads++;
            const doc = await c.get(id);
            if (hold) await hold;
            return doc;
          },
        });
      },
      ping: () => inner.ping(),
      close: async () => void db.close(),
    };
    return {
      inner: counting,
      reads: () => reads,
      holdReads: () => {
        let release!: () => void;
        hold = new Promise((r) => (release = r));
        return () => {
          hold = null;
          release();
        };
      },
    };
  }

  it('given a document read once, when it is read again, then memory answers, and nobody can change what it keeps', async () => {
    const s = counted();
    const store = new CachingDocumentStore(s.inner, { collections: ['scans'], enabled: () => true });
    const scans = store.collection('scans');
    await scans.put({ _id: 's1', status: 'running', counts: { high: 1 } });

    const first = await scans.get('s1');
    expect(() => ((first as any).status = 'changed by a caller')).toThrow(TypeError);
    expect(() => ((first as any).counts.high = 99)).toThrow(TypeError);
    const second = await scans.get('s1');

    expect(second).toEqual({ _id: 's1', status: 'running', counts: { high: 1 } });
    expect(s.reads()).toBe(1);
  });

  it('given a cached document, when the projector writes it, then the next read sees the write', async () => {
    const s = counted();
    const store = new CachingDocumentStore(s.inner, { collections: ['scans'], enabled: () => true });
    const scans = store.collection('scans');
    await scans.putIfNewer({ _id: 's1', _rev: 1, progress: 10 });
    await scans.get('s1');

    await scans.putIfNewer({ _id: 's1', _rev: 2, progress: 40 });
    expect(await scans.get('s1')).toEqual({ _id: 's1', _rev: 2, progress: 40 });

    await scans.delete('s1');
    expect(await scans.get('s1')).toBeNull();
    await scans.put({ _id: 's1', progress: 99 });
    expect(await scans.get('s1')).toEqual({ _id: 's1', progress: 99 });

    await scans.get('s1');
    await scans.deleteMany({ progress: 99 });
    expect(await scans.get('s1')).toBeNull();
  });

  it('given a read in flight, when a write lands before it returns, then the older answer is not kept', async () => {
    const s = counted();
    const store = new CachingDocumentStore(s.inner, { collections: ['scans'], enabled: () => true });
    const scans = store.collection('scans');
    await scans.putIfNewer({ _id: 's1', _rev: 1, progress: 10 });

    const release = s.holdReads();
    const slow = scans.get('s1');
    await new Promise((r) => setImmediate(r));
    await scans.putIfNewer({ _id: 's1', _rev: 2, progress: 50 });
    release();
    expect(await slow).toEqual({ _id: 's1', _rev: 1, progress: 10 });

    expect(await scans.get('s1')).toEqual({ _id: 's1', _rev: 2, progress: 50 });
  });

  it('given caching is off (no projector in this process), then every read goes to the store', async () => {
    const s = counted();
    let on = false;
    const store = new CachingDocumentStore(s.inner, { collections: ['scans'], enabled: () => on });
    const scans = store.collection('scans');
    await scans.put({ _id: 's1', progress: 1 });
    await scans.get('s1');
    await scans.get('s1');
    expect(s.reads()).toBe(2);

    on = true;
    await scans.get('s1');
    await scans.get('s1');
    expect(s.reads()).toBe(3);
  });

  it('keeps only the collections it was given, and a bounded number of documents', async () => {
    const s = counted();
    const store = new CachingDocumentStore(s.inner, { collections: ['scans'], enabled: () => true, maxDocuments: 2 });
    await store.collection('targets').put({ _id: 't1' });
    await store.collection('targets').get('t1');
    await store.collection('targets').get('t1');
    expect(s.reads()).toBe(2);

    const scans = store.collection('scans');
    for (const id of ['a', 'b', 'c']) await scans.put({ _id: id });
    for (const id of ['a', 'b', 'c']) await scans.get(id); // 'a' is pushed out by 'c'
    const before = s.reads();
    await scans.get('c');
    await scans.get('b');
    expect(s.reads()).toBe(before);
    await scans.get('a');
    expect(s.reads()).toBe(before + 1);
  });
});
