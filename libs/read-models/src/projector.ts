import { streamPrefixes } from '@gauntlet/domain';
import type { EventStore, Position, RecordedEvent } from '@gauntlet/eventstore';
import { CheckpointedSubscription, SubscriptionLog } from '@gauntlet/subscriptions';
import { DocumentCheckpoints } from './document-checkpoints';
import type { DocumentStore } from './document-store';
import type { Projection } from './projections/projection';

/**
 * Feeds every projection from the log, in order, from its checkpoint (saved after the documents:
 * a replayed event is stopped by the revision guard). A failing projection stops this projector
 * (it retries from its checkpoint with backoff) and nothing else: scans, deliveries and the api go on.
 */
export class Projector {
  private readonly consumer: CheckpointedSubscription;

  constructor(
    private readonly store: EventStore,
    private readonly docs: DocumentStore,
    private readonly projections: Projection<any>[],
    options: { name?: string; log?: SubscriptionLog } = {},
  ) {
    this.consumer = new CheckpointedSubscription(store, new DocumentCheckpoints(docs), options.name ?? 'read-models', (e) => this.apply(e), {
      filter: { streamPrefixes: [streamPrefixes.account, streamPrefixes.target, streamPrefixes.scan, streamPrefixes.webhook, streamPrefixes.monitor, streamPrefixes.schedule] },
      log: options.log,
    });
  }

  /** started in this process and not stopped */
  get running(): boolean {
    return this.consumer.running;
  }

  get lastError(): string | null {
    return this.consumer.lastError;
  }

  async prepare(): Promise<void> {
    for (const p of this.projections) for (const fields of p.indexes) await this.docs.collection(p.collection).ensureIndex(fields);
  }

  async start(): Promise<void> {
    await this.prepare();
    await this.consumer.start();
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
  }

  /** the position the read models have reached */
  checkpoint(): Promise<Position | null> {
    return this.consumer.position();
  }

  /**
   * Read-your-writes: resolves true once the read models include `position`, false on timeout.
   * In-process it wakes on each checkpoint; otherwise (api and projector in separate processes)
   * it polls the stored checkpoint.
   */
  async waitFor(position: Position, timeoutMs = 3000): Promise<boolean> {
    const reached = async () => {
      const at = await this.checkpoint();
      return at !== null && at >= position;
    };
    const deadline = Date.now() + timeoutMs;
    while (!(await reached())) {
      if (Date.now() >= deadline) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(25, Math.max(1, deadline - Date.now())));
        const off = this.consumer.onAdvance(done);
        function done() {
          clearTimeout(timer);
          off();
          resolve();
        }
      });
    }
    return true;
  }

  /** drops every read model and replays the whole log into them */
  async rebuild(): Promise<{ events: number }> {
    await this.stop();
    for (const p of this.projections) await this.docs.collection(p.collection).drop();
    await this.consumer.reset();
    await this.prepare();
    let after: Position | undefined;
    let events = 0;
    for (;;) {
      const page = await this.store.readAll({ after, maxCount: 1000 });
      if (page.length === 0) break;
      for (const e of page) await this.apply(e);
      after = page[page.length - 1].position;
      events += page.length;
      await this.consumer.save(after);
    }
    return { events };
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }
}
