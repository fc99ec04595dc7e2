/**
 * How many conversations to keep in flight with one target. Pure: told what happened, it answers
 * from that alone (no clock, no I/O); the RequestPacer composes it with the RateController.
 *
 * With a rate known, Little's law: rate × latency conversations keep the target busy, plus a
 * margin. Without one, it grows one at a time while answers come back as fast as the fastest seen
 * (the target is not queueing us) and shrinks when they slow down to twice that or time out. A
 * refusal is answered by the rate, not here: fewer conversations would only keep the target from
 * its limit; it only starts the count towards the next growth over.
 */
export type ConcurrencyObservation = { kind: 'answered'; latencyMs: number } | { kind: 'throttled' } | { kind: 'failed' };

export interface ConcurrencyOptions {
  /** conversations at first (the profile's) */
  initialConcurrency: number;
  /** never more than this many at once */
  maxConcurrency: number;
}

/** how long answers take, smoothed over the last few (each new one weighs a fifth) */
export const smoothLatency = (smoothed: number | null, latencyMs: number): number => (smoothed === null ? latencyMs : smoothed * 0.8 + latencyMs * 0.2);

export class ConcurrencyController {
  /** conversations allowed while no rate is known */
  private limit: number;
  private fastestMs = Infinity;
  private latencyMs: number | null = null;
  private answeredSinceGrowth = 0;

  constructor(private readonly options: ConcurrencyOptions) {
    this.limit = Math.max(1, Math.min(options.initialConcurrency, options.maxConcurrency));
  }

  observe(observation: ConcurrencyObservation): void {
    switch (observation.kind) {
      case 'answered':
        return this.answered(observation.latencyMs);
      case 'throttled':
        // the rate answers a refusal; the conversations stay
        this.answeredSinceGrowth = 0;
        return;
      case 'failed':
        // a time-out or a dropped connection: ease off
        this.limit = Math.max(1, Math.floor(this.limit * 0.75));
        this.answeredSinceGrowth = 0;
    }
  }

  /** conversations worth having in flight now, given the rate requests are paced at (null: unpaced) */
  concurrency(rate: number | null): number {
    if (rate === null || this.latencyMs === null) return this.limit;
    const needed = Math.ceil((rate * this.latencyMs * 1.25) / 1000) + 1;
    return Math.max(1, Math.min(this.options.maxConcurrency, needed));
  }

  private answered(latencyMs: number): void {
    this.fastestMs = Math.min(this.fastestMs, Math.max(1, latencyMs));
    this.latencyMs = smoothLatency(this.latencyMs, latencyMs);
    // without a known rate: grow while the target answers as fast as it can
    if (latencyMs > this.fastestMs * 2 + 50) {
      this.limit = Math.max(1, this.limit - 1);
      this.answeredSinceGrowth = 0;
    } else if (++this.answeredSinceGrowth >= this.limit) {
      this.answeredSinceGrowth = 0;
      this.limit = Math.min(this.options.maxConcurrency, this.limit + 1);
    }
  }
}
