import { MongoClient, MongoServerError, type Collection as MongoCollection, type Db, type Document } from 'mongodb';
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
 * How `putIfNewer` guards revisions. `filter`: one replaceOne whose filter holds the revision
 * condition, atomic per document on MongoDB. `read-then-write`: read by `_id`, then insert or
 * replace by `_id` alone, for FerretDB 1.24, whose filtered replace is itself a query then a
 * write (no atomicity to gain) and whose SQLite backend only uses an index for a filter that is
 * `_id` alone, so the `filter` form would scan the whole collection on every write.
 */
export type RevisionGuard = 'filter' | 'read-then-write';

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
    readonly guard: RevisionGuard = 'filter',
  ) {}

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    if (typeof name !== 'string' || name === '') throw new TypeError('a collection needs a non-empty name');
    return new MongoDocumentCollection<T>(this.db.collection<Document>(name), this.writes, this.guard);
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Connects, checks the server answers, and picks the revision guard the server can honour
 * (FerretDB says who it is in buildInfo). `guard` overrides that choice (tests run both).
 */
export async function connectMongoDocumentStore(url: string, dbName: string, guard?: RevisionGuard): Promise<MongoDocumentStore> {
  // undefined fields are left out, as JSON.stringify does in the SQLite adapter
  const client = new MongoClient(url, { ignoreUndefined: true, ...(/[?&]serverSelectionTimeoutMS=/i.test(url) ? {} : { serverSelectionTimeoutMS: 5_000 }) });
  try {
    await client.connect();
    const db = client.db(dbName);
    await db.command({ ping: 1 });
    const info = await db.command({ buildInfo: 1 });
    return new MongoDocumentStore(client, db, guard ?? (typeof info.ferretdbVersion === 'string' ? 'read-then-write' : 'filter'));
  } catch (err) {
    await client.close();
    throw err;
  }
}

/**
 * Writes to one document from this process go one at a time, in call order: with the
 * `read-then-write` guard (FerretDB) that is what makes racing projector writes end on the
 * highest revision. Across processes MongoDB's per-document atomicity holds; on FerretDB a
 * stale write can briefly win there, until the losing projector applies the next event (each
 * projector sees every event, in order).
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
    private readonly guard: RevisionGuard,
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
    return this.writes.run(this.c.collectionName, doc._id, () => (this.guard === 'filter' ? this.replaceIfOlder(doc) : this.readThenWrite(doc)));
  }

  private async replaceIfOlder(doc: T & { _rev: number }): Promise<boolean> {
    // Matches only an older stored revision (or one written by put without _rev); when the
    // stored one is as new or newer, the upsert tries to insert a second `_id` and fails.
    const filter = { _id: doc._id as never, $or: [{ _rev: { $lt: doc._rev } }, { _rev: null }] };
    // Two upserts racing on an absent document both try to insert; the loser's duplicate-key
    // error says nothing about its revision, so it tries once more against the winner's.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.c.replaceOne(filter, doc, { upsert: true });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        if (attempt > 0) return false;
      }
    }
  }

  private async readThenWrite(doc: T & { _rev: number }): Promise<boolean> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const stored = await this.c.findOne({ _id: doc._id as never });
      if (stored && typeof stored._rev === 'number' && stored._rev >= doc._rev) return false;
      if (stored) {
        await this.c.replaceOne({ _id: doc._id as never }, doc, { upsert: true });
        return true;
      }
      try {
        await this.c.insertOne(doc as Document);
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // another process inserted it meanwhile: compare again
      }
    }
    return false;
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

const isDuplicateKey = (err: unknown) => err instanceof MongoServerError && err.code === DUPLICATE_KEY;

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
