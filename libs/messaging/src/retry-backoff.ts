/**
 * How long a consumer waits before handing a failed message to its handler again. Retries never
 * end (a message is never skipped); only the wait between them is bounded.
 */
export interface RetryBackoff {
  /** wait before the first retry, ms */
  initialMs: number;
  /** the wait never grows past this, ms */
  maxMs: number;
}

export const defaultRetryBackoff: RetryBackoff = { initialMs: 200, maxMs: 30_000 };

/**
 * Exponential wait for the `attempt`-th retry (1-based), capped at maxMs, with +-20% jitter so
 * consumers that failed together do not retry in lockstep.
 */
export function retryDelay(attempt: number, backoff: RetryBackoff = defaultRetryBackoff, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** exponent);
  const jittered = base * (0.8 + 0.4 * random());
  return Math.round(Math.min(backoff.maxMs, jittered));
}
