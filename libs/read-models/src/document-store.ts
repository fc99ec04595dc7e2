/**
 * The DocumentStore port: where projections keep read models and checkpoints.
 * Deliberately small so MongoDB (and FerretDB, which has no transactions, no $lookup, no
 * dotted keys) and the embedded SQLite adapter can both honour it exactly.
 */

/**
 * Every document has a string `_id` and the revision guard `_rev` (see `putIfNewer`).
 * Values are JSON values (strings, finite numbers, booleans, null, arrays, plain objects).
 * Field names, at every depth, never contain `.` and never start with `$`, and an array never
 * sits directly inside another array: FerretDB 1.24 refuses both, so every adapter refuses them
 * (`assertStorableDocument`) and code tested on the embedded store cannot write what the
 * distributed one rejects. Wrap inner lists in objects (`[{ items: [...] }]`).
 */
export interface Doc {
  _id: string;
  _rev?: number;
  [field: string]: unknown;
}

/**
 * Equality on top-level fields; a value of `{ $in: [...] }` matches any of them. `null` matches
 * a null or missing field. Queried, sorted and indexed fields are plain names (`isQueryableField`).
 */
export type Filter = Record<string, string | number | boolean | null | { $in: (string | number)[] }>;

export interface FindOptions {
  /**
   * one top-level field; ties broken by `_id` in the same direction; null and missing sort first
   * ascending. Without a sort, documents come in `_id` order. Keep a sorted field to one type.
   */
  sort?: { field: string; direction: 'asc' | 'desc' };
  limit?: number;
  /** keyset cursor: the sort value and `_id` of the last document of the previous page */
  after?: { value: string | number | null; id: string };
}

export interface Collection<T extends Doc = Doc> {
  get(id: string): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** replace unconditionally */
  put(doc: T): Promise<void>;
  /**
   * Replace only if the stored document is absent or its `_rev` is lower than `doc._rev`.
   * Returns false when the stored one is as new or newer (a redelivered event): idempotency.
   */
  putIfNewer(doc: T & { _rev: number }): Promise<boolean>;
  delete(id: string): Promise<void>;
  deleteMany(filter: Filter): Promise<number>;
  /** declare the fields queries filter and sort on; adapters create indexes (idempotent) */
  ensureIndex(fields: string[]): Promise<void>;
  drop(): Promise<void>;
}

export interface DocumentStore {
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /** reachable and answering */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** a name adapters can put into a query, a sort or an index without quoting */
export const isQueryableField = (field: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(field);

export function assertQueryableField(field: string): void {
  if (!isQueryableField(field)) throw new TypeError(`cannot query on field ${JSON.stringify(field)}: use a top-level name of letters, digits and _`);
}

/** refuses what FerretDB cannot store: keys with `.` or a leading `$`, arrays directly in arrays */
export function assertStorableDocument(doc: Doc): void {
  if (typeof doc._id !== 'string' || doc._id === '') throw new TypeError('a document needs a non-empty string _id');
  const visit = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      return value.forEach((v, i) => {
        if (Array.isArray(v)) throw new TypeError(`field ${JSON.stringify(`${path}${i}`)} is an array inside an array`);
        visit(v, `${path}${i}/`);
      });
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if (key.includes('.') || key.startsWith('$')) throw new TypeError(`field ${JSON.stringify(`${path}${key}`)} contains "." or starts with "$"`);
      visit(v, `${path}${key}/`);
    }
  };
  visit(doc, '');
}
