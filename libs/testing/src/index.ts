import { Decider, DomainError, DomainErrorCode } from '@gauntlet/domain';

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
