import { MongoClient } from 'mongodb';
import { budgetStoreContract } from '@gauntlet/auth/testing';
import { connectMongoBudgetStore } from './mongo-budget-store';

const url = process.env.MONGODB_URL ?? process.env.FERRETDB_URL;
const dbName = `gauntlet_budgets_${process.pid}`;

if (url) {
  afterAll(async () => {
    const client = await new MongoClient(url).connect();
    await client.db(dbName).dropDatabase().catch(() => undefined);
    await client.close();
  });
  // two clients: what two api processes have
  budgetStoreContract('MongoDB wire protocol (FerretDB in npm test), two clients', async () => [await connectMongoBudgetStore(url, dbName), await connectMongoBudgetStore(url, dbName)]);
} else {
  it.skip('BudgetStore contract on MongoDB: set MONGODB_URL or FERRETDB_URL (npm test starts FerretDB)', () => undefined);
}
