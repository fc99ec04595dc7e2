import { PacingOptions, PacingOutcome, PacingPolicy } from './pacing-policy';

/**
 * The pacing policy on a clock: one per driver, shared by every conversation, retries included.
 * With only a rate (`max_requests_per_second`) it is a token bucket holding one token, refilled
 * at that rate: requests leave evenly spaced and a target that allows N per second never sees
 * more than N in any second. What the target answers makes it adapt (pacing-policy.ts).
 */
export class RequestPacer {
  readonly policy: PacingPolicy;

  constructor(options: number | null | undefined | PacingOptions, private readonly clock: () => number = Date.now) {
    this.policy = new PacingPolicy(
      typeof options === 'object' && options !== null
        ? options
        : { ceilingRate: options && options > 0 ? options : null, initialConcurrency: 4, maxConcurrency: 4 },
    );
  }

  /** resolves with the time the caller may send (now or later); rejects with the signal's reason when aborted first */
  async take(signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    // a refusal while waiting for a slot pauses everyone: the slot is given up and another taken
    for (let tries = 0; ; tries++) {
      const seen = this.policy.pauseCount;
      const now = this.clock();
      const at = this.policy.reserve(now);
      if (at > now) await sleep(at - now, signal);
      if (!this.policy.pausedSince(seen) || tries >= 10) return at;
    }
  }

  record(outcome: PacingOutcome): void {
    this.policy.record(outcome, this.clock());
  }

  /** conversations worth having in flight now */
  concurrency(): number {
    return this.policy.concurrency();
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
