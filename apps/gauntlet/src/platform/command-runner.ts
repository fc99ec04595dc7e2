import type { Decider, DomainEvent } from '@gauntlet/domain';
import type { Position } from '@gauntlet/eventstore';
import { Aggregates, CommandContext, Decided, StreamWriter, WriteOptions } from './aggregates';

/** how far the read models have got: the projector, in a process that runs one, or its checkpoint */
export interface ProjectionProgress {
  waitFor(position: Position): Promise<unknown>;
}

/**
 * The one skeleton every command handler used to write out: load the stream, fold it, decide,
 * append with the expected revision (Aggregates, which decides again after a conflict), and for
 * the api wait until the read models include the change, so the response and the client's next
 * GET agree (read-your-writes). Handlers gather the facts a decision needs and call `commit`.
 */
export class CommandRunner {
  constructor(private readonly aggregates: Aggregates, private readonly projection: ProjectionProgress) {}

  /** decide and append, then wait for the read models to include the change */
  async commit<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, command: C, context: CommandContext): Promise<Decided<E, S>> {
    const decided = await this.aggregates.handle(decider, streamId, command, context);
    if (decided.position !== null) await this.projection.waitFor(decided.position);
    return decided;
  }

  /** decide and append without waiting for the read models (scanners, deliveries: nobody reads back at once) */
  append<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, command: C, context: CommandContext, options?: WriteOptions): Promise<Decided<E, S>> {
    return this.aggregates.handle(decider, streamId, command, context, options);
  }

  /** the state a stream folds to now: facts from the log (never a read model) for a decision */
  async state<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string): Promise<S> {
    return (await this.aggregates.load(decider, streamId)).state;
  }

  /** a long-lived writer of one stream (a scanner running a scan), see Aggregates.open */
  open<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, context: CommandContext): Promise<StreamWriter<C, E, S>> {
    return this.aggregates.open(decider, streamId, context);
  }
}
