import { BudgetStore, windowAt } from '@gauntlet/auth';
import { ProblemException } from '../../http/problem';

const HOUR_MS = 3_600_000;
/**
 * In-flight checks are counted in windows this long: a process that dies holding a check frees
 * its unit when the window ends, and one check lasts at most a few minutes.
 */
const IN_FLIGHT_WINDOW_MS = 600_000;

/** a check's admission: released once the check has answered and closed what it opened */
export interface CheckSlot {
  release(): Promise<void>;
}

/**
 * A connection check opens a browser (about 200 MiB) or calls a model for the caller, and does
 * not spend the scan quota; so an account may have only a few in flight at once and a budget of
 * them per hour (TARGET_CHECKS_IN_FLIGHT, TARGET_CHECKS_PER_HOUR), both counted in the shared
 * budget store so every api process spends the same ones. Beyond either, 429 with Retry-After.
 */
export class CheckGate {
  constructor(
    private readonly store: BudgetStore,
    readonly limits: { inFlight: number; perHour: number },
    private readonly now: () => number = Date.now,
  ) {}

  async admit(accountId: string): Promise<CheckSlot> {
    const now = this.now();
    const running = windowAt(now, IN_FLIGHT_WINDOW_MS);
    const runningKey = `target-checks-in-flight:${accountId}`;
    const slot = await this.store.take(runningKey, running, 1, this.limits.inFlight);
    if (slot.granted === 0) {
      throw new ProblemException(429, `Your account may run ${this.limits.inFlight} connection check${this.limits.inFlight === 1 ? '' : 's'} at once; wait for the one running to answer.`, {
        slug: 'target-checks-in-flight', title: 'Too many connection checks at once', headers: { 'Retry-After': '10' },
      });
    }
    const release = () => this.store.giveBack(runningKey, running, 1);
    const hour = windowAt(now, HOUR_MS);
    const spent = await this.store.take(`target-checks:${accountId}`, hour, 1, this.limits.perHour).catch(async (err) => {
      await release();
      throw err;
    });
    if (spent.granted === 0) {
      await release();
      const resetSeconds = Math.max(1, Math.ceil((hour.end - now) / 1000));
      throw new ProblemException(429, `Your account may run ${this.limits.perHour} connection checks per hour; try again in ${Math.ceil(resetSeconds / 60)} minutes.`, {
        slug: 'target-check-limit', title: 'Connection check limit reached', headers: { 'Retry-After': String(resetSeconds) },
      });
    }
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await release().catch(() => undefined);
      },
    };
  }
}
