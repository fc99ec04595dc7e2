import { MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { BudgetStore, BudgetWindow, Taken } from './budget-store';

interface BudgetDoc {
  _id: string;
  key: string;
  window_start: number;
  window_end: number;
  spent: number;
}

const DUPLICATE_KEY = 11000;

/**
 * Budgets in MongoDB (or FerretDB: no transactions, no pipeline updates), one document per key
 * and window. A take is a conditional increment: `spent` goes up by `want` only where at least
 * `want` units are left, so concurrent takes from any number of processes never pass the limit.
 * When fewer are left it asks for what is left; the document is created on the window's first take.
 */
export class MongoBudgetStore implements BudgetStore {
  constructor(private readonly client: MongoClient, private readonly budgets: Collection<BudgetDoc>) {}

  async take(key: string, window: BudgetWindow, want: number, limit: number): Promise<Taken> {
    const _id = `${key}@${window.start}`;
    let asked = Math.min(want, limit);
    // bounded: each round either takes, learns there is nothing left, or creates the document
    for (let round = 0; round < 8 && asked > 0; round++) {
      const after = await this.budgets.findOneAndUpdate({ _id, spent: { $lte: limit - asked } }, { $inc: { spent: asked } }, { returnDocument: 'after' });
      if (after) return { granted: asked, spent: after.spent };
      const current = await this.budgets.findOne({ _id });
      if (!current) {
        await this.budgets.insertOne({ _id, key, window_start: window.start, window_end: window.end, spent: 0 }).catch((err) => {
          if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
        });
        continue;
      }
      asked = Math.min(asked, limit - current.spent);
    }
    const current = await this.budgets.findOne({ _id });
    return { granted: 0, spent: current?.spent ?? 0 };
  }

  async giveBack(key: string, window: BudgetWindow, units: number): Promise<void> {
    await this.budgets.updateOne({ _id: `${key}@${window.start}`, spent: { $gte: units } }, { $inc: { spent: -units } });
  }

  async sweep(now: number): Promise<void> {
    await this.budgets.deleteMany({ window_end: { $lte: now } });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

export async function connectMongoBudgetStore(url: string, dbName: string): Promise<MongoBudgetStore> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  return new MongoBudgetStore(client, client.db(dbName).collection<BudgetDoc>('budgets'));
}
