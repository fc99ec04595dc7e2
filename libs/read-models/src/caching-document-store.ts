import type { Collection, Doc, DocumentStore, Filter, FindOptions } from './document-store';

export interface CachingOptions {
  /** the collections whose documents are kept after a read by id (others pass straight through) */
  collections: string[];
  /**
   * Cached reads are served only while this answers true. The runtime ties it to "the projector
   * runs in this process": the projector is the only writer of the cached collections, so every
   * change to them passes through this object and invalidates what it kept.
   */
  enabled: () => boolean;
  /** documents kept per collection; the least recently read go first (default 10,000) */
  maxDocuments?: number;
}

/**
 * A DocumentStore decorator for the api's hottest reads: the caller's account on every
 * authenticated request and a scan's status while a client polls it. `get` by id is served from
 * memory after the first read; every write through this object (put, putIfNewer, delete,
 * deleteMany, drop) forgets what it touches first, and a read that raced a write is not kept.
 * Kept documents are deeply frozen and shared by every reader: a caller that tries to change one
 * gets a TypeError instead of quietly changing what the next request reads (copy it first).
 *
 * A change written by another process's projector shows here once this process's projector has
 * applied the same event: reads stay consistent with this process's own checkpoint, which is
 * what read-your-writes waits for.
 */
export class CachingDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, Collection<any>>();

  constructor(
    readonly inner: DocumentStore,
    private readonly options: CachingOptions,
  ) {}

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      const inner = this.inner.collection<T>(name);
      c = this.options.collections.includes(name) ? new CachingCollection<T>(inner, this.options) : inner;
      this.collections.set(name, c);
    }
    return c as Collection<T>;
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

class CachingCollection<T extends Doc> implements Collection<T> {
  private readonly kept = new Map<string, T | null>();
  /** bumped by every write: a read that started before a write must not be kept */
  private writes = 0;

  constructor(
    private readonly inner: Collection<T>,
    private readonly options: CachingOptions,
  ) {}

  async get(id: string): Promise<T | null> {
    if (!this.options.enabled()) return this.inner.get(id);
    const kept = this.kept.get(id);
    if (kept !== undefined) {
      // least recently read goes first: move this one to the end
      this.kept.delete(id);
      this.kept.set(id, kept);
      return kept;
    }
    const before = this.writes;
    const doc = await this.inner.get(id);
    if (this.writes !== before) return doc;
    const frozen = doc === null ? null : deepFreeze(doc);
    this.keep(id, frozen);
    return frozen;
  }

  find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return this.inner.find(filter, options);
  }

  count(filter: Filter): Promise<number> {
    return this.inner.count(filter);
  }

  put(doc: T): Promise<void> {
    return this.writing(() => this.inner.put(doc), doc._id);
  }

  putIfNewer(doc: T & { _rev: number }): Promise<boolean> {
    return this.writing(() => this.inner.putIfNewer(doc), doc._id);
  }

  delete(id: string): Promise<void> {
    return this.writing(() => this.inner.delete(id), id);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.writing(() => this.inner.deleteMany(filter));
  }

  ensureIndex(fields: string[]): Promise<void> {
    return this.inner.ensureIndex(fields);
  }

  drop(): Promise<void> {
    return this.writing(() => this.inner.drop());
  }

  /** forgets `id` (or everything) before and after the write, whatever its outcome */
  private async writing<R>(write: () => Promise<R>, id?: string): Promise<R> {
    const forget = () => {
      this.writes++;
      if (id === undefined) this.kept.clear();
      else this.kept.delete(id);
    };
    forget();
    try {
      return await write();
    } finally {
      forget();
    }
  }

  private keep(id: string, doc: T | null): void {
    const max = this.options.maxDocuments ?? 10_000;
    if (this.kept.size >= max) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(id, doc);
  }
}

function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
