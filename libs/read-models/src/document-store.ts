/**
 * The DocumentStore port: where projections keep read models and checkpoints.
 * Deliberately small so MongoDB (and FerretDB, which has no transactions, no $lookup, no
 * dotted keys) and the embedded SQLite adapter can both honour it exactly.
 */

/** Every document has a string `_id` and the revision guard `_rev` (see `putIfNewer`). */
export interface Doc {
  _id: string;
  _rev?: number;
  [field: string]: unknown;
}

/** Equality on top-level fields; a value of `{ $in: [...] }` matches any of them. */
export type Filter = Record<string, string | number | boolean | null | { $in: (string | number)[] }>;

export interface FindOptions {
  /** one top-level field; ties broken by `_id` in the same direction */
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
