import { MongoBulkWriteError, MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { BudgetStore, BudgetWindow, Taken } from './budget-store';

/** one unit of a budget: ticket `n` of `key` in the window that starts at `window_start` */
interface TicketDoc {
  _id: string;
  key: string;
  window_start: number;
  window_end: number;
  n: number;
}

const DUPLICATE_KEY = 11000;

/**
 * Budgets in MongoDB or FerretDB as tickets: a budget of `limit` units is the tickets numbered
 * 0..limit-1 of a key and window, and a unit is taken by inserting its ticket. The one thing
 * this relies on is that two inserts of one `_id` cannot both succeed, which FerretDB guarantees
 * (its _id is the primary key of a SQLite table) as MongoDB does; FerretDB's conditional updates
 * (findAndModify with a filter) are a read then a write with no isolation, so concurrent takes
 * through them passed the limit (the contract test caught 37 units granted of 25).
 * A take counts the tickets, then inserts the next ones unordered: those another process took
 * meanwhile fail as duplicates and are not granted. Three round trips per take (a count, the
 * inserts, a count), which the leases make rare.
 */
export class MongoBudgetStore implements BudgetStore {
  constructor(private readonly client: MongoClient, private readonly tickets: Collection<TicketDoc>) {}

  async take(key: string, window: BudgetWindow, want: number, limit: number): Promise<Taken> {
    const filter = { key, window_start: window.start };
    let next = await this.tickets.countDocuments(filter);
    let granted = 0;
    // bounded: every round moves `next` on by the tickets it tried, and stops at the limit
    while (granted < want && next < limit) {
      const numbers = Array.from({ length: Math.min(want - granted, limit - next) }, (_, i) => next + i);
      granted += await this.insert(numbers.map((n) => ({ _id: `${key}@${window.start}#${n}`, key, window_start: window.start, window_end: window.end, n })));
      next += numbers.length;
    }
    return { granted, spent: Math.min(limit, await this.tickets.countDocuments(filter)) };
  }

  /** inserts the tickets no one holds yet; answers how many it got */
  private async insert(docs: TicketDoc[]): Promise<number> {
    try {
      return (await this.tickets.insertMany(docs, { ordered: false })).insertedCount;
    } catch (err) {
      const onlyTaken =
        err instanceof MongoBulkWriteError &&
        (Array.isArray(err.writeErrors) ? err.writeErrors : [err.writeErrors]).every((e) => e.code === DUPLICATE_KEY);
      if (onlyTaken) return err.insertedCount;
      if (err instanceof MongoServerError && err.code === DUPLICATE_KEY && docs.length === 1) return 0;
      throw err;
    }
  }

  /** gives back the highest tickets, so the numbers a take counts from stay the ones in use */
  async giveBack(key: string, window: BudgetWindow, units: number): Promise<void> {
    for (let given = 0, rounds = 0; given < units && rounds < units * 4; rounds++) {
      const [top] = await this.tickets.find({ key, window_start: window.start }).sort({ n: -1 }).limit(1).toArray();
      if (!top) return;
      given += (await this.tickets.deleteOne({ _id: top._id })).deletedCount;
    }
  }

  async sweep(now: number): Promise<void> {
    await this.tickets.deleteMany({ window_end: { $lte: now } });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

export async function connectMongoBudgetStore(url: string, dbName: string): Promise<MongoBudgetStore> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  const tickets = client.db(dbName).collection<TicketDoc>('budget_tickets');
  await tickets.createIndex({ key: 1, window_start: 1, n: 1 });
  return new MongoBudgetStore(client, tickets);
}
