/** How an API driver retries a target that is down, overloaded or rate limiting. */
export interface RetryPolicy {
  /** attempts in all, the first included */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** a Retry-After longer than this is cut down to it: a scan should not stall for an hour */
  maxRetryAfterMs: number;
  /**
   * refusals with a Retry-After (429, or 503 naming a wait) one request may wait out before it
   * counts as failed: a target that says when to come back is pacing us, not down
   */
  maxThrottledAttempts: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 30_000, maxThrottledAttempts: 12 };

/**
 * The wait a refusal asks for: `retry-after-ms` (OpenAI and Azure send it, finer than seconds)
 * before the standard Retry-After.
 */
export function retryAfterOf(headers: Record<string, string | string[] | undefined>, now: number): number | null {
  const ms = Number(String(headers['retry-after-ms'] ?? '').trim());
  if (String(headers['retry-after-ms'] ?? '').trim() !== '' && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  return parseRetryAfter(headers['retry-after'], now);
}

/**
 * Retry-After (RFC 9110 10.2.3) in milliseconds from `now`: delay-seconds or an HTTP date.
 * null when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!raw) return null;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  // an HTTP date names its day and month; Date.parse alone would take "-5" for a year
  if (!/[a-z]{3}/i.test(raw)) return null;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Wait before retry number `retry` (1 for the first): exponential backoff with "equal jitter"
 * (half fixed, half random) so drivers retrying together do not hit the target in step.
 * A Retry-After from the target wins when longer, up to the policy's cap.
 */
export function retryDelay(retry: number, policy: RetryPolicy, retryAfterMs: number | null, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const backoff = ceiling / 2 + (random() * ceiling) / 2;
  if (retryAfterMs === null) return Math.round(backoff);
  return Math.round(Math.min(policy.maxRetryAfterMs, Math.max(retryAfterMs, 0)));
}
