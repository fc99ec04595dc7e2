import type Database from 'better-sqlite3';
import type { SqliteDatabase } from '@gauntlet/eventstore';
import { createHash } from 'node:crypto';
import {
  assertQueryableField,
  assertStorableDocument,
  type Collection,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
} from '../document-store';

type Param = string | number | null;

const TABLE = 'rm_documents';
const INDEX_PREFIX = 'rm_ix_';
/** statements are compiled once per distinct SQL text; filters with long $in lists vary, so bound the cache */
const MAX_CACHED_STATEMENTS = 500;

/**
 * Read models in the embedded deployment: one table beside the event log in the same SQLite
 * file, a row per document (collection, id, rev, body as JSON). Queries reach top-level fields
 * with json_extract, and `ensureIndex` builds partial expression indexes over exactly those
 * expressions, so filtered and sorted reads stay index scans.
 *
 * better-sqlite3 is synchronous: every call completes before its promise is returned, which
 * also makes `putIfNewer` a single atomic upsert.
 */
export class SqliteDocumentStore implements DocumentStore {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly collections = new Map<string, SqliteCollection<any>>();

  /** `db` is usually the one `openSqlite(file)` returned for the event store; `close()` leaves it open unless `ownsDatabase` */
  constructor(
    readonly db: SqliteDatabase,
    private readonly options: { ownsDatabase?: boolean } = {},
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (
      collection TEXT NOT NULL,
      id TEXT NOT NULL,
      rev INTEGER,
      body TEXT NOT NULL,
      PRIMARY KEY (collection, id)
    )`);
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    if (typeof name !== 'string' || name === '') throw new TypeError('a collection needs a non-empty name');
    let c = this.collections.get(name);
    if (!c) this.collections.set(name, (c = new SqliteCollection<T>(name, this)));
    return c as SqliteCollection<T>;
  }

  async ping(): Promise<void> {
    this.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.statements.clear();
    if (this.options.ownsDatabase && this.db.open) this.db.close();
  }

  /** @internal */
  statement(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.clear();
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}

class SqliteCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly name: string,
    private readonly store: SqliteDocumentStore,
  ) {}

  async get(id: string): Promise<T | null> {
    const row = this.store.statement(`SELECT body FROM ${TABLE} WHERE collection = ? AND id = ?`).get(this.name, id) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as T) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const where = compileFilter(this.name, filter);
    const sort = options.sort ?? { field: '_id', direction: 'asc' as const };
    assertQueryableField(sort.field);
    const expr = fieldExpr(sort.field);
    const dir = sort.direction === 'desc' ? 'DESC' : 'ASC';
    if (options.after) {
      const after = compileAfter(sort.field, sort.direction, options.after);
      where.sql += ` AND ${after.sql}`;
      where.params.push(...after.params);
    }
    const order = sort.field === '_id' ? `id ${dir}` : `${expr} ${dir}, id ${dir}`;
    let sql = `SELECT body FROM ${TABLE} WHERE ${where.sql} ORDER BY ${order}`;
    if (options.limit !== undefined) {
      sql += ' LIMIT ?';
      where.params.push(checkLimit(options.limit));
    }
    const rows = this.store.statement(sql).all(...where.params) as { body: string }[];
    return rows.map((r) => JSON.parse(r.body) as T);
  }

  async count(filter: Filter): Promise<number> {
    const where = compileFilter(this.name, filter);
    const row = this.store.statement(`SELECT count(*) AS n FROM ${TABLE} WHERE ${where.sql}`).get(...where.params) as { n: number };
    return row.n;
  }

  async put(doc: T): Promise<void> {
    const [id, rev, body] = encode(doc);
    this.store
      .statement(`INSERT INTO ${TABLE} (collection, id, rev, body) VALUES (?, ?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET rev = excluded.rev, body = excluded.body`)
      .run(this.name, id, rev, body);
  }

  async putIfNewer(doc: T & { _rev: number }): Promise<boolean> {
    checkRev(doc._rev);
    const [id, rev, body] = encode(doc);
    // the guard sits in the upsert itself: no read-then-write window
    const result = this.store
      .statement(
        `INSERT INTO ${TABLE} (collection, id, rev, body) VALUES (?, ?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET rev = excluded.rev, body = excluded.body ` +
          `WHERE ${TABLE}.rev IS NULL OR ${TABLE}.rev < excluded.rev`,
      )
      .run(this.name, id, rev, body);
    return result.changes > 0;
  }

  async delete(id: string): Promise<void> {
    this.store.statement(`DELETE FROM ${TABLE} WHERE collection = ? AND id = ?`).run(this.name, id);
  }

  async deleteMany(filter: Filter): Promise<number> {
    const where = compileFilter(this.name, filter);
    return this.store.statement(`DELETE FROM ${TABLE} WHERE ${where.sql}`).run(...where.params).changes;
  }

  async ensureIndex(fields: string[]): Promise<void> {
    if (fields.length === 0) throw new TypeError('an index needs at least one field');
    fields.forEach(assertQueryableField);
    const columns = fields.map(fieldExpr);
    if (fields[fields.length - 1] !== '_id') columns.push('id'); // the sort tie-break, so ordered pages come straight off the index
    const name = `${indexPrefix(this.name)}${createHash('sha256').update(fields.join(',')).digest('hex').slice(0, 16)}`;
    this.store.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${TABLE} (${columns.join(', ')}) WHERE collection = ${sqlString(this.name)}`);
  }

  async drop(): Promise<void> {
    const db = this.store.db;
    const indexes = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND substr(name, 1, ?) = ?`)
      .all(TABLE, indexPrefix(this.name).length, indexPrefix(this.name)) as { name: string }[];
    db.transaction(() => {
      db.prepare(`DELETE FROM ${TABLE} WHERE collection = ?`).run(this.name);
      for (const { name } of indexes) db.exec(`DROP INDEX IF EXISTS ${name}`);
    })();
  }
}

/** the SQL for a top-level field; `_id` and `_rev` live in their own columns */
function fieldExpr(field: string): string {
  if (field === '_id') return 'id';
  if (field === '_rev') return 'rev';
  return `json_extract(body, '$.${field}')`;
}

function compileFilter(collection: string, filter: Filter): { sql: string; params: Param[] } {
  const terms = ['collection = ?'];
  const params: Param[] = [collection];
  for (const [field, value] of Object.entries(filter)) {
    assertQueryableField(field);
    const expr = fieldExpr(field);
    const column = field === '_id' || field === '_rev';
    if (value === null) {
      terms.push(`${expr} IS NULL`);
    } else if (typeof value === 'boolean') {
      // json_extract turns true/false into 1/0: check the JSON type so `true` never equals `1`
      terms.push(column ? '0' : `${expr} = ? AND json_type(body, '$.${field}') = ?`);
      if (!column) params.push(value ? 1 : 0, value ? 'true' : 'false');
    } else if (typeof value === 'string' || typeof value === 'number') {
      terms.push(`${expr} = ?`);
      params.push(value);
      if (typeof value === 'number' && !column) terms.push(`json_type(body, '$.${field}') IN ('integer', 'real')`);
    } else if (value && typeof value === 'object' && Array.isArray(value.$in)) {
      if (value.$in.length === 0) terms.push('0');
      else {
        terms.push(`${expr} IN (${value.$in.map(() => '?').join(', ')})`);
        params.push(...value.$in);
      }
    } else {
      throw new TypeError(`unsupported filter on ${field}`);
    }
  }
  return { sql: terms.join(' AND '), params };
}

/** keyset continuation after (value, id) in the page order; null sorts first ascending, as in MongoDB */
function compileAfter(field: string, direction: 'asc' | 'desc', after: NonNullable<FindOptions['after']>): { sql: string; params: Param[] } {
  if (field === '_id') return { sql: direction === 'desc' ? 'id < ?' : 'id > ?', params: [after.id] };
  const expr = fieldExpr(field);
  if (direction === 'asc') {
    if (after.value === null) return { sql: `(${expr} IS NOT NULL OR id > ?)`, params: [after.id] };
    return { sql: `(${expr} > ? OR (${expr} = ? AND id > ?))`, params: [after.value, after.value, after.id] };
  }
  if (after.value === null) return { sql: `(${expr} IS NULL AND id < ?)`, params: [after.id] };
  return { sql: `(${expr} < ? OR ${expr} IS NULL OR (${expr} = ? AND id < ?))`, params: [after.value, after.value, after.id] };
}

function encode(doc: Doc): [string, number | null, string] {
  assertStorableDocument(doc);
  return [doc._id, typeof doc._rev === 'number' ? doc._rev : null, JSON.stringify(doc)];
}

function checkRev(rev: unknown): void {
  if (typeof rev !== 'number' || !Number.isSafeInteger(rev)) throw new TypeError('putIfNewer needs an integer _rev');
}

function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError('limit must be a non-negative integer');
  return limit === 0 ? -1 : limit; // 0 means no limit, as in MongoDB
}

/** index names carry the collection in hex so `drop()` finds them and no name needs quoting */
const indexPrefix = (collection: string) => `${INDEX_PREFIX}${Buffer.from(collection, 'utf8').toString('hex')}_`;

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;
