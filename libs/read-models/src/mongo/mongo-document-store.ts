import { MongoClient, MongoServerError, type Db, type Document, type Collection as MongoCollection } from 'mongodb';
import {
  assertQueryableField,
  assertStorableDocument,
  type Collection,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
} from '../document-store';

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;

/**
 * Read models on MongoDB or FerretDB 1.24 (the distributed deployment). Only what FerretDB
 * serves is used: single-document writes, equality/$in/$or/range filters, sort, limit,
 * createIndex. No transactions, sessions, change streams, arrayFilters, $lookup or $facet.
 */
export class MongoDocumentStore implements DocumentStore {
  private readonly writes = new DocumentWriteQueue();

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {}

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    if (typeof name !== 'string' || name === '') throw new TypeError('a collection needs a non-empty name');
    return new MongoDocumentCollection<T>(this.db.collection<Document>(name), this.writes);
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** connects (and checks the server answers) before returning the store */
export async function connectMongoDocumentStore(url: string, dbName: string): Promise<MongoDocumentStore> {
  // undefined fields are left out, as JSON.stringify does in the SQLite adapter
  const client = new MongoClient(url, { ignoreUndefined: true, ...(/[?&]serverSelectionTimeoutMS=/i.test(url) ? {} : { serverSelectionTimeoutMS: 5_000 }) });
  await client.connect();
  const store = new MongoDocumentStore(client, client.db(dbName));
  try {
    await store.ping();
  } catch (err) {
    await client.close();
    throw err;
  }
  return store;
}

/**
 * FerretDB 1.24 runs a filtered replace as a query then a write, with nothing held between
 * them, so two guarded replaces of one document can both match and the older can land last.
 * Writes to one document from this process therefore go one at a time, in call order. Across
 * processes MongoDB's per-document atomicity holds; on FerretDB a stale write can briefly win
 * there, until the losing projector applies the next event (each projector sees every event).
 */
class DocumentWriteQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<R>(collection: string, id: string, write: () => Promise<R>): Promise<R> {
    const key = `${collection}\u0000${id}`;
    const result = (this.tails.get(key) ?? Promise.resolve()).then(write);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

class MongoDocumentCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly c: MongoCollection<Document>,
    private readonly writes: DocumentWriteQueue,
  ) {}

  async get(id: string): Promise<T | null> {
    return (await this.c.findOne({ _id: id as never })) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const sort = options.sort ?? { field: '_id', direction: 'asc' as const };
    assertQueryableField(sort.field);
    const dir = sort.direction === 'desc' ? -1 : 1;
    let query = toQuery(filter);
    if (options.after) query = { $and: [query, afterQuery(sort.field, sort.direction, options.after)] };
    const order: Record<string, 1 | -1> = sort.field === '_id' ? { _id: dir } : { [sort.field]: dir, _id: dir };
    let cursor = this.c.find(query).sort(order);
    if (options.limit !== undefined) {
      if (!Number.isSafeInteger(options.limit) || options.limit < 0) throw new RangeError('limit must be a non-negative integer');
      cursor = cursor.limit(options.limit);
    }
    return (await cursor.toArray()) as unknown as T[];
  }

  async count(filter: Filter): Promise<number> {
    return this.c.countDocuments(toQuery(filter));
  }

  async put(doc: T): Promise<void> {
    assertStorableDocument(doc);
    await this.writes.run(this.c.collectionName, doc._id, () => this.c.replaceOne({ _id: doc._id as never }, doc, { upsert: true }));
  }

  async putIfNewer(doc: T & { _rev: number }): Promise<boolean> {
    assertStorableDocument(doc);
    if (typeof doc._rev !== 'number' || !Number.isSafeInteger(doc._rev)) throw new TypeError('putIfNewer needs an integer _rev');
    // Matches only an older stored revision (or one written by put without _rev); when the
    // stored one is as new or newer, the upsert tries to insert a second `_id` and fails.
    const filter = { _id: doc._id as never, $or: [{ _rev: { $lt: doc._rev } }, { _rev: null }] };
    // Two upserts racing on an absent document both try to insert; the loser's duplicate-key
    // error says nothing about its revision, so it tries once more against the winner's.
    return this.writes.run(this.c.collectionName, doc._id, async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await this.c.replaceOne(filter, doc, { upsert: true });
          return true;
        } catch (err) {
          if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
          if (attempt > 0) return false;
        }
      }
    });
  }

  async delete(id: string): Promise<void> {
    await this.writes.run(this.c.collectionName, id, () => this.c.deleteOne({ _id: id as never }));
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.c.deleteMany(toQuery(filter))).deletedCount;
  }

  async ensureIndex(fields: string[]): Promise<void> {
    if (fields.length === 0) throw new TypeError('an index needs at least one field');
    fields.forEach(assertQueryableField);
    if (fields.length === 1 && fields[0] === '_id') return; // always there
    await this.c.createIndex(Object.fromEntries(fields.map((f) => [f, 1])));
  }

  async drop(): Promise<void> {
    try {
      await this.c.drop();
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === NAMESPACE_NOT_FOUND)) throw err;
    }
  }
}

function toQuery(filter: Filter): Document {
  const query: Document = {};
  for (const [field, value] of Object.entries(filter)) {
    assertQueryableField(field);
    if (value !== null && typeof value === 'object') {
      if (!Array.isArray(value.$in)) throw new TypeError(`unsupported filter on ${field}`);
      query[field] = { $in: value.$in };
    } else {
      query[field] = value;
    }
  }
  return query;
}

/** keyset continuation after (value, id) in the page order; null and missing sort first ascending */
function afterQuery(field: string, direction: 'asc' | 'desc', after: NonNullable<FindOptions['after']>): Document {
  if (field === '_id') return { _id: { [direction === 'desc' ? '$lt' : '$gt']: after.id } };
  if (direction === 'asc') {
    if (after.value === null) return { $or: [{ [field]: { $ne: null } }, { [field]: null, _id: { $gt: after.id } }] };
    return { $or: [{ [field]: { $gt: after.value } }, { [field]: after.value, _id: { $gt: after.id } }] };
  }
  if (after.value === null) return { [field]: null, _id: { $lt: after.id } };
  return { $or: [{ [field]: { $lt: after.value } }, { [field]: null }, { [field]: after.value, _id: { $lt: after.id } }] };
}
