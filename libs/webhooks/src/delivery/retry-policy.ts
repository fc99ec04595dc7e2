/** The contract's waits: 1, 5 and 30 minutes (WEBHOOK_RETRY_DELAYS_MS). */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [60_000, 300_000, 1_800_000];

export type NextAttempt = { retryAt: number; delayMs: number } | { drop: true };

/**
 * After failed attempt `attemptNumber` (1 = the first delivery), when to try again, or drop.
 * The first attempt plus one retry per delay; a receiver's Retry-After may push a retry later,
 * never sooner than the schedule.
 */
export function nextAttempt(attemptNumber: number, delaysMs: readonly number[] = DEFAULT_RETRY_DELAYS_MS, now = Date.now(), retryAfterMs?: number): NextAttempt {
  if (!Number.isInteger(attemptNumber) || attemptNumber < 1) throw new RangeError(`attemptNumber must be a positive integer, got ${attemptNumber}`);
  const delay = delaysMs[attemptNumber - 1];
  if (delay === undefined) return { drop: true };
  const delayMs = Math.max(delay, retryAfterMs ?? 0);
  return { retryAt: now + delayMs, delayMs };
}

/** Retry-After is delay-seconds or an HTTP-date (RFC 9110 10.2.3); null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
