/**
 * A token bucket holding one token, refilled at `perSecond`: requests leave evenly spaced, so a
 * target that allows N requests per second never sees more than N in any second. One pacer is
 * shared by every conversation of a driver, retries included.
 */
export class RequestPacer {
  private nextSlot = 0;
  private readonly intervalMs: number;

  constructor(perSecond: number | null | undefined, private readonly clock: () => number = Date.now) {
    this.intervalMs = perSecond && perSecond > 0 ? 1000 / perSecond : 0;
  }

  /** resolves when the caller may send; rejects with the signal's reason when aborted first */
  async take(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.intervalMs === 0) return;
    const now = this.clock();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await sleep(slot - now, signal);
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
