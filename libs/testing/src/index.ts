import { Decider, DomainError, DomainErrorCode, PROOF_KINDS, proofFactsOf, type ProofKind, type ProofMatch } from '@gauntlet/domain';

/**
 * given(events).when(command).then(events | error): the way every decider is specified.
 *   spec(accountDecider).given([...]).when(cmd).then([...])
 *   spec(accountDecider).given([...]).when(cmd).thenFails('conflict')
 */
export function spec<C, E, S>(decider: Decider<C, E, S>) {
  return {
    given(events: E[]) {
      return {
        when(command: C) {
          const run = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
          return {
            then(expected: E[]) {
              expect(run()).toEqual(expected);
            },
            thenFails(code: DomainErrorCode, message?: RegExp) {
              let caught: unknown;
              try {
                run();
              } catch (e) {
                caught = e;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).code).toBe(code);
              if (message) expect((caught as DomainError).message).toMatch(message);
            },
            /** for assertions on part of the result (generated ids, computed values) */
            thenEvents(): E[] {
              return run();
            },
          };
        },
      };
    },
  };
}

/**
 * A proof of `kind` that records every fact its kind declares (PROOF_FACTS), each a value of its
 * own (`method-out_of_band`): what a view's spec builds to see that each fact shows, those a later
 * change adds too.
 */
export function proofWithEveryFact(kind: ProofKind): ProofMatch {
  return { kind, ...Object.fromEntries(proofFactsOf(kind).map((f) => [f.name, `${f.name}-${kind}`])) };
}

/** the proof kinds that carry facts of their own (a tool call, an out-of-band request) */
export const KINDS_WITH_FACTS: readonly ProofKind[] = PROOF_KINDS.filter((k) => proofFactsOf(k).length > 0);
