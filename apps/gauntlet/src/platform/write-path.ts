import type { Decider, DomainEvent, EventMetadata } from '@gauntlet/domain';
import { EventStore, Position, WrongExpectedRevisionError } from '@gauntlet/eventstore';
import type { Metrics } from './metrics';

export interface CommandContext {
  actor: string;
  correlationId: string;
  causationId?: string;
}

/** a stream folded: its state, and the revision a decision on that state is appended at */
export interface Loaded<S> {
  state: S;
  /** revision of the last event read, null for a stream not yet written */
  revision: number | null;
}

export interface Decided<E, S> {
  events: E[];
  /** state after the new events */
  state: S;
  /** position of the last appended event, null when the command changed nothing */
  position: Position | null;
}

export interface StreamWriter<C, E, S> {
  readonly state: S;
  handle(command: C): Promise<Decided<E, S>>;
}

export interface WriteOptions<E = DomainEvent> {
  /**
   * Appends tried before a conflict surfaces (409). Each round of conflicting writers has one
   * winner, so a stream that N requests write at once needs N: more than the default only for
   * streams many requests share (an account's scan quota).
   */
  attempts?: number;
  /**
   * A write the decision depends on, in another stream (a scan request spends its quota): run
   * once the events are decided and before they are appended, never for a decision that changes
   * nothing. A conflict decides again and runs it again, so it must be idempotent (the quota is
   * spent once per scan id). Throwing appends nothing.
   */
  beforeAppend?: (events: E[]) => Promise<unknown>;
}

/** how far the read models have got: the projector, in a process that runs one, or its checkpoint */
export interface ProjectionProgress {
  waitFor(position: Position): Promise<unknown>;
}

const DEFAULT_ATTEMPTS = 4;

/**
 * The write path, the one way any state changes, the same for every aggregate: fold the stream,
 * decide once on that state, append the decided events at the revision it was read at. A
 * concurrent writer makes the append fail; the command is then decided again on the fresh state
 * (a few times, then the conflict surfaces as 409). `commit` also waits until the read models
 * include the change, so an api response and the client's next GET agree (read-your-writes).
 */
export class WritePath {
  constructor(
    private readonly store: EventStore,
    private readonly projection: ProjectionProgress,
    private readonly metrics?: Metrics,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** the stream folded from the log (never a read model): the facts a decision may rest on */
  async load<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string): Promise<Loaded<S>> {
    const recorded = await this.store.readStream(streamId);
    let state = decider.initialState();
    for (const r of recorded) state = decider.evolve(state, { type: r.type, schemaVersion: Number(r.metadata.schemaVersion ?? 1), data: r.data } as E);
    return { state, revision: recorded.length ? recorded[recorded.length - 1].revision : null };
  }

  async state<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string): Promise<S> {
    return (await this.load(decider, streamId)).state;
  }

  /** load, decide, append (deciding again after a conflict); nobody waits to read it back (scanners, deliveries) */
  async decide<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, command: C, context: CommandContext, options?: WriteOptions<E>): Promise<Decided<E, S>> {
    return (await this.open(decider, streamId, context, options)).handle(command);
  }

  /** decide, then wait until the read models include the change: the api's commands */
  async commit<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, command: C, context: CommandContext, options?: WriteOptions<E>): Promise<Decided<E, S>> {
    const decided = await this.decide(decider, streamId, command, context, options);
    if (decided.position !== null) await this.projection.waitFor(decided.position);
    return decided;
  }

  /**
   * A long-lived writer of one stream (a scanner running a scan): it keeps the folded state and
   * the revision between commands instead of re-reading a stream of thousands of events each time.
   * A conflict (someone else wrote, e.g. a cancel) reloads and decides again.
   */
  async open<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, context: CommandContext, options: WriteOptions<E> = {}): Promise<StreamWriter<C, E, S>> {
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    let { state, revision } = await this.load(decider, streamId);
    return {
      get state() {
        return state;
      },
      handle: async (command: C) => {
        for (let attempt = 1; ; attempt++) {
          const events = decider.decide(command, state);
          if (events.length === 0) return { events, state, position: null };
          if (options.beforeAppend) await options.beforeAppend(events);
          try {
            const result = await this.append(streamId, events, revision, context);
            state = events.reduce(decider.evolve, state);
            revision = result.nextRevision;
            return { events, state, position: result.position };
          } catch (err) {
            if (!(err instanceof WrongExpectedRevisionError) || attempt >= attempts) throw err;
            this.metrics?.appendConflicts.inc();
            ({ state, revision } = await this.load(decider, streamId));
          }
        }
      },
    };
  }

  private async append(streamId: string, events: DomainEvent[], revision: number | null, context: CommandContext) {
    const occurredAt = this.clock().toISOString();
    const result = await this.store.append(
      streamId,
      events.map((e) => ({ type: e.type, data: e.data, metadata: { ...context, occurredAt, schemaVersion: e.schemaVersion } satisfies EventMetadata })),
      { expectedRevision: revision ?? 'no_stream' },
    );
    for (const e of events) this.metrics?.eventsAppended.inc({ type: e.type });
    return result;
  }
}
