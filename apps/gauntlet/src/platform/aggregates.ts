import { Decider, DomainEvent, EventMetadata } from '@gauntlet/domain';
import { EventStore, Position, WrongExpectedRevisionError } from '@gauntlet/eventstore';
import { Metrics } from './metrics';

export interface CommandContext {
  actor: string;
  correlationId: string;
  causationId?: string;
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

export interface WriteOptions {
  /**
   * Appends tried before a conflict surfaces (409). Each round of conflicting writers has one
   * winner, so a stream that N requests write at once needs N: more than the default only for
   * streams many requests share (an account's scan quota).
   */
  attempts?: number;
}

const DEFAULT_ATTEMPTS = 4;

/**
 * The write path, the same for every aggregate: read the stream, fold it, decide, append with
 * the expected revision. A concurrent writer makes the append fail; the command is then decided
 * again on the fresh state (a few times, then the conflict surfaces as 409).
 */
export class Aggregates {
  constructor(private readonly store: EventStore, private readonly metrics?: Metrics, private readonly clock: () => Date = () => new Date()) {}

  async load<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string): Promise<{ state: S; revision: number | null }> {
    const recorded = await this.store.readStream(streamId);
    let state = decider.initialState();
    for (const r of recorded) state = decider.evolve(state, { type: r.type, schemaVersion: Number(r.metadata.schemaVersion ?? 1), data: r.data } as E);
    return { state, revision: recorded.length ? recorded[recorded.length - 1].revision : null };
  }

  /**
   * A long-lived writer of one stream (a scanner running a scan): it keeps the folded state and
   * the revision between commands instead of re-reading a stream of thousands of events each time.
   * A conflict (someone else wrote, e.g. a cancel) reloads and decides again.
   */
  async open<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, context: CommandContext, options: WriteOptions = {}): Promise<StreamWriter<C, E, S>> {
    const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
    let { state, revision } = await this.load(decider, streamId);
    const writer: StreamWriter<C, E, S> = {
      get state() {
        return state;
      },
      handle: async (command: C) => {
        for (let attempt = 1; ; attempt++) {
          const events = decider.decide(command, state);
          if (events.length === 0) return { events, state, position: null };
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
    return writer;
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

  async handle<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, command: C, context: CommandContext, options?: WriteOptions): Promise<Decided<E, S>> {
    return (await this.open(decider, streamId, context, options)).handle(command);
  }
}
