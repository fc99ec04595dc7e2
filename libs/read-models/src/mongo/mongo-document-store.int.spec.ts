import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeDocumentStoreContract } from '@gauntlet/read-models/testing';
import { connectMongoDocumentStore, type RevisionGuard } from './mongo-document-store';

// MONGODB_URL: a real MongoDB; otherwise the FerretDB 1.24 that `infra/ferretdb.sh start` runs
const url = process.env.MONGODB_URL || process.env.FERRETDB_URL;
const server = process.env.MONGODB_URL ? 'mongodb' : 'ferretdb';

if (!url) {
  console.log('mongo document store contract skipped: neither MONGODB_URL nor FERRETDB_URL is set (run `eval "$(infra/ferretdb.sh start)"` first)');
  it.skip('MongoDocumentStore contract (no MONGODB_URL or FERRETDB_URL)', () => undefined);
} else {
  // both revision guards honour the contract on either server; connect picks one per server
  for (const guard of ['filter', 'read-then-write'] as RevisionGuard[]) {
    describeDocumentStoreContract(`${server}, ${guard} guard`, async () => {
      const dbName = `gauntlet_contract_${randomUUID().slice(0, 8)}`;
      const store = await connectMongoDocumentStore(url, dbName, guard);
      return {
        store,
        cleanup: async () => {
          await store.close();
          const client = await MongoClient.connect(url);
          await client.db(dbName).dropDatabase();
          await client.close();
        },
      };
    });
  }

  describe('connectMongoDocumentStore', () => {
    it(`picks the guard ${server} can honour`, async () => {
      const store = await connectMongoDocumentStore(url, 'gauntlet_contract_guard');
      expect(store.guard).toBe(server === 'ferretdb' ? 'read-then-write' : 'filter');
      await store.close();
    });

    it('fails fast when nothing listens', async () => {
      await expect(connectMongoDocumentStore('mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300', 'x')).rejects.toThrow();
    });
  });
}
