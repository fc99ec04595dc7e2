import type { EventFilter, EventStore, Position, RecordedEvent, Subscription } from '@gauntlet/eventstore';
import type { CheckpointStore } from './checkpoint-store';

export interface SubscriptionLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * A consumer of the log that remembers how far it got: the checkpoint lives in a CheckpointStore
 * (the document store, next to what the consumer writes), and is saved after each event is handled. After a
 * crash the last events are handled again, so handlers must be idempotent. A failing handler
 * stops this consumer only; it restarts from its checkpoint with backoff and nothing is skipped.
 */
export class CheckpointedSubscription {
  private subscription: Subscription | null = null;
  private current: Position | null = null;
  private stopped = true;
  private retry: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<() => void>();
  lastError: string | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly checkpoints: CheckpointStore,
    readonly name: string,
    private readonly handler: (event: RecordedEvent) => Promise<void>,
    private readonly options: { filter?: EventFilter; log?: SubscriptionLog } = {},
  ) {}

  get running(): boolean {
    return this.subscription !== null;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.current = await this.load();
    this.subscribe(0);
  }

  private subscribe(failures: number): void {
    if (this.stopped) return;
    const sub = this.store.subscribeToAll({ after: this.current ?? undefined, filter: this.options.filter }, async (e) => {
      await this.handler(e);
      await this.save(e.position);
      failures = 0;
    });
    this.subscription = sub;
    sub.done.then(
      () => undefined,
      (err: unknown) => {
        if (this.stopped) return;
        this.lastError = err instanceof Error ? err.message : String(err);
        const delay = Math.min(30_000, 250 * 2 ** failures);
        this.options.log?.error({ err: this.lastError, consumer: this.name, retryInMs: delay }, 'log consumer failed; restarting from its checkpoint');
        this.retry = setTimeout(() => this.subscribe(failures + 1), delay);
      },
    );
  }

  load(): Promise<Position | null> {
    return this.checkpoints.load(this.name);
  }

  async save(position: Position): Promise<void> {
    await this.checkpoints.save(this.name, position);
    this.current = position;
    for (const listener of this.listeners) listener();
  }

  async reset(): Promise<void> {
    await this.checkpoints.delete(this.name);
    this.current = null;
  }

  /** this process's position when running, else the stored checkpoint (another process's) */
  async position(): Promise<Position | null> {
    return this.running ? this.current : this.load();
  }

  /** called after every saved checkpoint */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const sub = this.subscription;
    this.subscription = null;
    if (sub) await sub.stop();
  }
}
