/**
 * The shape every aggregate in Gauntlet follows (after Emmett / Oskar Dudycz):
 * business rules live in `decide`, state is only ever rebuilt by folding events with `evolve`.
 * Pure functions: no I/O, no clock, no randomness. Whatever varies comes in on the command.
 */
export interface Decider<Command, Event, State> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

/** A rule the command broke. `code` maps 1:1 to an HTTP problem status in the api layer. */
export type DomainErrorCode = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'limit_exceeded';

/** Which named rule was broken, for callers that tell rules apart (the api's problem type). */
export interface BrokenRule {
  /** e.g. `scan-quota`, `plan-format` */
  rule: string;
  title: string;
  /** when trying again can succeed (a limit that resets) */
  retryAfterSeconds?: number;
  /** the facts the rule decided on, as the caller may show them */
  facts?: Record<string, unknown>;
}

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly broken?: BrokenRule,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function fold<E, S>(decider: Pick<Decider<unknown, E, S>, 'evolve' | 'initialState'>, events: readonly E[]): S {
  return events.reduce(decider.evolve, decider.initialState());
}
