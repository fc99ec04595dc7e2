/**
 * How hard to push one target: when the next request may leave and how many conversations may
 * be in flight. Pure: it is told what happened (with the time) and answers from that alone.
 *
 * - Rate. Unknown targets start unpaced. A 429 (or a 503 with Retry-After) means "too fast": the
 *   rate becomes what the target admitted over the last two seconds, a little under it, and every
 *   request waits out the Retry-After (the limit is on the client, not on one request). Without
 *   a refusal the rate creeps up 2 % every two seconds, so a limit that rises is found again: an
 *   additive-increase, multiplicative-decrease saw-tooth that sits just under the real limit.
 *   `max_requests_per_second`, when set, is a ceiling it never crosses.
 * - Concurrency. With a rate known, Little's law: rate × latency conversations keep the target
 *   busy, plus a margin. Without one, the policy grows one at a time while answers come back as
 *   fast as the fastest seen (the target is not queueing us) and shrinks when they slow down to
 *   twice that or requests are refused or time out.
 */
export interface PacingOptions {
  /** `max_requests_per_second` of the target, or null */
  ceilingRate: number | null;
  /** conversations at first (the profile's) */
  initialConcurrency: number;
  /** never more than this many at once */
  maxConcurrency: number;
}

export type PacingOutcome =
  | { kind: 'answered'; sentAt: number; latencyMs: number }
  | { kind: 'throttled'; retryAfterMs: number | null }
  | { kind: 'failed' };

/** how far back admitted requests are counted to measure a limit */
const WINDOW_MS = 2_000;
/** the rate grows once per this long without a refusal */
const GROWTH_EVERY_MS = 1_000;
/** the share of the measured limit paced at after a refusal */
const BACKOFF = 0.95;
/** growth of the rate per quiet period */
const PROBE = 1.02;
const MIN_RATE = 0.2;

export class PacingPolicy {
  /** requests per second; null: unpaced */
  private rate: number | null;
  private nextSlot = 0;
  private pausedUntil = 0;
  private lastGrowth = 0;
  private readonly admitted: number[] = [];
  private concurrencyLimit: number;
  private fastestMs = Infinity;
  private smoothedLatencyMs: number | null = null;
  private answeredSinceGrowth = 0;
  private throttles = 0;
  private firstSentAt: number | null = null;

  constructor(private readonly options: PacingOptions) {
    this.rate = options.ceilingRate;
    this.concurrencyLimit = Math.max(1, Math.min(options.initialConcurrency, options.maxConcurrency));
  }

  /** when a request wanting to leave at `now` may go; the slot is taken */
  reserve(now: number): number {
    this.firstSentAt ??= now;
    const at = Math.max(now, this.pausedUntil, this.nextSlot);
    if (this.rate !== null) this.nextSlot = at + 1000 / this.rate;
    return at;
  }

  record(outcome: PacingOutcome, now: number): void {
    switch (outcome.kind) {
      case 'answered':
        return this.answered(outcome.sentAt, outcome.latencyMs, now);
      case 'throttled':
        return this.throttled(outcome.retryAfterMs, now);
      case 'failed':
        // a time-out or a dropped connection: ease off, the rate stays as it was
        this.concurrencyLimit = Math.max(1, Math.floor(this.concurrencyLimit * 0.75));
        this.answeredSinceGrowth = 0;
    }
  }

  /** conversations worth having in flight now */
  concurrency(): number {
    if (this.rate === null || this.smoothedLatencyMs === null) return this.concurrencyLimit;
    const needed = Math.ceil((this.rate * this.smoothedLatencyMs * 1.25) / 1000) + 1;
    return Math.max(1, Math.min(this.options.maxConcurrency, needed));
  }

  /** for figures and tests */
  get state() {
    return { rate: this.rate, concurrency: this.concurrency(), throttles: this.throttles, pausedUntil: this.pausedUntil };
  }

  private answered(sentAt: number, latencyMs: number, now: number): void {
    this.admitted.push(sentAt);
    this.forget(now);
    this.fastestMs = Math.min(this.fastestMs, Math.max(1, latencyMs));
    this.smoothedLatencyMs = this.smoothedLatencyMs === null ? latencyMs : this.smoothedLatencyMs * 0.8 + latencyMs * 0.2;
    // rate: probe upwards while nothing is refused
    if (this.rate !== null && now - this.lastGrowth >= GROWTH_EVERY_MS) {
      this.lastGrowth = now;
      this.rate = this.capped(this.rate * PROBE);
    }
    // concurrency without a known rate: grow while the target answers as fast as it can
    if (latencyMs > this.fastestMs * 2 + 50) {
      this.concurrencyLimit = Math.max(1, this.concurrencyLimit - 1);
      this.answeredSinceGrowth = 0;
    } else if (++this.answeredSinceGrowth >= this.concurrencyLimit) {
      this.answeredSinceGrowth = 0;
      this.concurrencyLimit = Math.min(this.options.maxConcurrency, this.concurrencyLimit + 1);
    }
  }

  private throttled(retryAfterMs: number | null, now: number): void {
    this.throttles++;
    this.forget(now);
    const measured = this.admittedRate(now);
    // too little history to measure (the first second): wait as told, learn on the next refusal
    if (measured !== null) {
      this.rate = this.capped(Math.max(MIN_RATE, Math.min(this.rate ?? Infinity, measured) * BACKOFF));
      this.lastGrowth = now;
    }
    this.pausedUntil = Math.max(this.pausedUntil, now + (retryAfterMs ?? (this.rate ? 1000 / this.rate : 1000)));
    this.nextSlot = Math.max(this.nextSlot, this.pausedUntil);
    this.concurrencyLimit = Math.max(1, Math.floor(this.concurrencyLimit / 2));
    this.answeredSinceGrowth = 0;
  }

  /**
   * Requests per second the target admitted lately, by the time they were sent. The last
   * latency's worth is left out: what was sent then has not been answered yet, and counting
   * that stretch as empty would under-measure the limit.
   */
  private admittedRate(now: number): number | null {
    if (this.firstSentAt === null || now - this.firstSentAt < 1000) return null;
    const end = now - Math.min(this.smoothedLatencyMs ?? 0, WINDOW_MS / 2);
    const start = Math.max(now - WINDOW_MS, this.firstSentAt);
    if (end - start < 500) return null;
    const count = this.admitted.filter((t) => t >= start && t < end).length;
    return (count * 1000) / (end - start);
  }

  private capped(rate: number): number {
    return this.options.ceilingRate === null ? rate : Math.min(rate, this.options.ceilingRate);
  }

  private forget(now: number): void {
    while (this.admitted.length && this.admitted[0] < now - 2 * WINDOW_MS) this.admitted.shift();
  }
}
