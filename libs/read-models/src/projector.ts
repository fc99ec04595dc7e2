import type { EventStore, Position, RecordedEvent, Subscription } from '@gauntlet/eventstore';
import type { DocumentStore } from './document-store';
import type { Projection } from './projections/projection';

export interface ProjectorLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

interface CheckpointDoc {
  _id: string;
  position: string;
  updated_at: string;
  [k: string]: unknown;
}

const CHECKPOINTS = 'checkpoints';

/**
 * Feeds every projection from the log, in order, from its checkpoint. The checkpoint lives in the
 * same document store as the read models and is saved after the documents: after a crash the
 * last events are applied again and the revision guard makes that harmless.
 * A failing projection stops this projector (it retries from its checkpoint with backoff) and
 * nothing else: scans, deliveries and the api go on.
 */
export class Projector {
  private subscription: Subscription | null = null;
  private current: Position | null = null;
  private waiters = new Set<() => void>();
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  lastError: string | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly docs: DocumentStore,
    private readonly projections: Projection<any>[],
    private readonly options: { name?: string; log?: ProjectorLog; onApplied?: (e: RecordedEvent) => void } = {},
  ) {}

  private get name() {
    return this.options.name ?? 'read-models';
  }

  async prepare(): Promise<void> {
    for (const p of this.projections) for (const fields of p.indexes) await this.docs.collection(p.collection).ensureIndex(fields);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.prepare();
    this.current = await this.loadCheckpoint();
    this.subscribe(0);
  }

  private subscribe(failures: number): void {
    if (this.stopped) return;
    const sub = this.store.subscribeToAll({ after: this.current ?? undefined }, async (e) => {
      await this.apply(e);
      await this.saveCheckpoint(e.position);
      failures = 0;
    });
    this.subscription = sub;
    sub.done.then(
      () => undefined,
      (err: unknown) => {
        if (this.stopped) return;
        this.lastError = err instanceof Error ? err.message : String(err);
        const delay = Math.min(30_000, 250 * 2 ** failures);
        this.options.log?.error({ err: this.lastError, projector: this.name, retryInMs: delay }, 'projection failed; restarting from checkpoint');
        this.retry = setTimeout(() => this.subscribe(failures + 1), delay);
      },
    );
  }

  /** applies one event to every projection that cares (idempotent) */
  async apply(event: RecordedEvent): Promise<void> {
    for (const p of this.projections) {
      const id = p.documentId(event);
      if (id === null) continue;
      const collection = this.docs.collection(p.collection);
      const current = await collection.get(id);
      if (current && typeof current._rev === 'number' && current._rev >= event.revision) continue;
      const next = p.apply(current, event);
      if (next) await collection.putIfNewer({ ...next, _rev: event.revision });
    }
    this.options.onApplied?.(event);
  }

  private async loadCheckpoint(): Promise<Position | null> {
    const doc = await this.docs.collection<CheckpointDoc>(CHECKPOINTS).get(this.name);
    return doc ? BigInt(doc.position) : null;
  }

  private async saveCheckpoint(position: Position): Promise<void> {
    await this.docs.collection<CheckpointDoc>(CHECKPOINTS).put({ _id: this.name, position: String(position), updated_at: new Date().toISOString() });
    this.current = position;
    for (const wake of this.waiters) wake();
  }

  /** the position the read models have reached (this process's view, or the stored checkpoint) */
  async checkpoint(): Promise<Position | null> {
    return this.subscription ? this.current : this.loadCheckpoint();
  }

  /**
   * Read-your-writes: resolves true once the read models include `position`, false on timeout.
   * In-process it wakes on each applied event; otherwise (api and projector in separate
   * processes) it polls the stored checkpoint.
   */
  async waitFor(position: Position, timeoutMs = 3000): Promise<boolean> {
    const reached = async () => {
      const at = await this.checkpoint();
      return at !== null && at >= position;
    };
    if (await reached()) return true;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(25, Math.max(1, deadline - Date.now())));
        this.waiters.add(wake);
      });
      if (await reached()) return true;
    }
    return false;
  }

  /** drops every read model and replays the whole log into them */
  async rebuild(): Promise<{ events: number }> {
    await this.stop();
    for (const p of this.projections) await this.docs.collection(p.collection).drop();
    await this.docs.collection(CHECKPOINTS).delete(this.name);
    await this.prepare();
    let after: Position | undefined;
    let events = 0;
    for (;;) {
      const page = await this.store.readAll({ after, maxCount: 1000 });
      if (page.length === 0) break;
      for (const e of page) await this.apply(e);
      after = page[page.length - 1].position;
      events += page.length;
      await this.saveCheckpoint(after);
    }
    return { events };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const sub = this.subscription;
    this.subscription = null;
    if (sub) await sub.stop();
  }
}
