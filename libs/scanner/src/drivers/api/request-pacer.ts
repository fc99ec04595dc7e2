import { ConcurrencyController, ConcurrencyOptions } from './concurrency-controller';
import { RateController, RateObservation } from './rate-controller';

export interface PacingOptions extends ConcurrencyOptions {
  /** `max_requests_per_second` of the target, or null */
  ceilingRate: number | null;
}

/**
 * What became of one request, as both controllers are told it. An answer says how large it was
 * (tokens or characters) and how many requests were in flight when it left: the concurrency
 * controller judges the time per unit at each number in flight.
 */
export type PacingOutcome = Exclude<RateObservation, { kind: 'answered' }> | (Extract<RateObservation, { kind: 'answered' }> & { units?: number; inFlight?: number });

/**
 * The pacing of one target on a clock: one per driver, shared by every conversation, retries
 * included. It composes two pure controllers, each told every outcome: the RateController says
 * when the next request may leave (rate-controller.ts), the ConcurrencyController how many
 * conversations to keep in flight at that rate (concurrency-controller.ts). With only a rate
 * (`max_requests_per_second`) it is a token bucket holding one token, refilled at that rate:
 * requests leave evenly spaced and a target that allows N per second never sees more than N in
 * any second.
 */
export class RequestPacer {
  private readonly rate: RateController;
  private readonly conversations: ConcurrencyController;

  constructor(options: number | null | undefined | PacingOptions, private readonly clock: () => number = Date.now) {
    const { ceilingRate, ...concurrency } =
      typeof options === 'object' && options !== null ? options : { ceilingRate: options && options > 0 ? options : null, initialConcurrency: 4, maxConcurrency: 4 };
    this.rate = new RateController(ceilingRate);
    this.conversations = new ConcurrencyController(concurrency);
  }

  /** resolves with the time the caller sends (now or later); rejects with the signal's reason when aborted first */
  async take(signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    // a refusal while waiting for a slot pauses everyone: the slot is given up and another taken
    for (let tries = 0; ; tries++) {
      const seen = this.rate.pauses;
      const now = this.clock();
      const at = this.rate.reserve(now);
      if (at > now) await sleep(at - now, signal);
      if (this.rate.pauses === seen || tries >= 10) break;
    }
    // the slot has come; it leaves once the pace's spacing after the last to leave has passed too
    for (;;) {
      const now = this.clock();
      const at = this.rate.depart(now);
      if (at <= now) return now;
      await sleep(at - now, signal);
    }
  }

  record(outcome: PacingOutcome): void {
    this.rate.observe(outcome, this.clock());
    this.conversations.observe(outcome);
  }

  /** conversations worth having in flight now */
  concurrency(): number {
    return this.conversations.concurrency(this.rate.rate);
  }

  /**
   * Requests a second the target takes at this pace: the conversations in flight over the time an
   * answer takes (Little's law), within the rate; null before the first answer.
   */
  throughput(): number | null {
    const latency = this.latency;
    if (latency === null) return null;
    const byConversations = (this.concurrency() * 1000) / Math.max(1, latency);
    return this.rate.rate === null ? byConversations : Math.min(this.rate.rate, byConversations);
  }

  /** how long answers take, smoothed (null before the first) */
  get latency(): number | null {
    return this.conversations.latency;
  }

  /** for figures and tests */
  get state() {
    return { rate: this.rate.rate, concurrency: this.concurrency(), throttles: this.rate.throttles, pausedUntil: this.rate.pausedUntil };
  }
}

/** setTimeout as a promise that an AbortSignal can cut short */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
