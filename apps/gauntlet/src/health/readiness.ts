import type { EventStore } from '@gauntlet/eventstore';
import type { Bus } from '@gauntlet/messaging';
import type { DocumentStore, Projector } from '@gauntlet/read-models';
import type { Infrastructure } from '../platform/infrastructure';
import type { Metrics } from '../platform/metrics';

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

export interface ReadinessReport {
  up: boolean;
  checks: Record<string, { status: 'up' } | { status: 'down'; error: string }>;
  projection: Record<string, unknown>;
}

/** Whether this process's stores and bus answer, and how far the read models lag behind the log (GET /readyz). */
export class Readiness {
  constructor(
    private readonly engines: { kinds: Infrastructure['kinds']; events: EventStore; documents: DocumentStore; bus: Bus },
    private readonly projector: Pick<Projector, 'checkpoint' | 'lastError'>,
    private readonly metrics: Pick<Metrics, 'projectionLag'>,
  ) {}

  async check(): Promise<ReadinessReport> {
    const { kinds, events, documents, bus } = this.engines;
    const check = async (name: string, fn: () => Promise<unknown>) => {
      try {
        await within(fn(), 2000);
        return [name, { status: 'up' as const }] as const;
      } catch (err) {
        return [name, { status: 'down' as const, error: err instanceof Error ? err.message : 'unreachable' }] as const;
      }
    };
    const checks: ReadinessReport['checks'] = Object.fromEntries(
      await Promise.all([
        check(`event_store (${kinds.events})`, () => events.headPosition()),
        check(`documents (${kinds.documents})`, () => documents.ping()),
        check(`bus (${kinds.bus})`, () => bus.ping()),
      ]),
    );
    let projection: Record<string, unknown> = {};
    try {
      const [head, at] = await Promise.all([events.headPosition(), this.projector.checkpoint()]);
      const lag = head === null ? 0 : Number(head - (at ?? 0n));
      this.metrics.projectionLag.set(lag);
      projection = { checkpoint: at === null ? null : String(at), head: head === null ? null : String(head), lag, last_error: this.projector.lastError };
    } catch {
      projection = { lag: null };
    }
    return { up: Object.values(checks).every((c) => c.status === 'up'), checks, projection };
  }
}
