export class Timeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}
export class Stopped extends Error {}

/**
 * Bounds every wait of one scan: no wait in the engine is unbounded. Each wait is registered with
 * its deadline and one coarse ticker checks them all, and the scan's stop rejects every stoppable
 * wait at once: a scan makes thousands of waits, and a timer plus an abort listener each cost
 * more than the engine's own work on a fast target.
 */
export class Waits {
  private readonly pending = new Set<{ ms: number; deadline: number; stoppable: boolean; reject: (e: Error) => void }>();
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly stop: AbortSignal,
    tickMs: number,
  ) {
    this.ticker = setInterval(() => this.expire(), tickMs);
    this.ticker.unref();
    stop.addEventListener('abort', () => this.rejectAll(), { once: true });
  }

  /** settles with `work`, or rejects with Timeout after `ms`, or with Stopped when the scan stops (unless not `stoppable`) */
  bounded<T>(work: () => Promise<T>, ms: number, stoppable = true): Promise<T> {
    if (stoppable && this.stop.aborted) return Promise.reject(new Stopped());
    return new Promise<T>((resolve, reject) => {
      const entry = { ms, deadline: performance.now() + ms, stoppable, reject: (e: Error) => (this.pending.delete(entry), reject(e)) };
      this.pending.add(entry);
      work().then(
        (v) => (this.pending.delete(entry), resolve(v)),
        (e) => (this.pending.delete(entry), reject(e)),
      );
    });
  }

  close(): void {
    clearInterval(this.ticker);
  }

  private expire(): void {
    const now = performance.now();
    for (const entry of this.pending) if (entry.deadline <= now) entry.reject(new Timeout(entry.ms));
  }

  private rejectAll(): void {
    for (const entry of this.pending) if (entry.stoppable) entry.reject(new Stopped());
  }
}

/**
 * Runs `work` over `items`, `width` at a time, until they are done or `stopped()` says so.
 * `width` may change while it runs (a driver's pacing learning the target): it is asked again
 * each time an item finishes, so the pool grows and shrinks with it. `items` may be a source
 * asked for the next item whenever there is room: null means none now (asked again when one
 * under way finishes), and the pool is done when it says null with nothing under way. Work that
 * builds on what came back so starts as soon as it can, instead of waiting for a whole round.
 */
export function pool<T>(items: readonly T[] | (() => T | null), width: number | (() => number), stopped: () => boolean, work: (item: T) => Promise<void>): Promise<void> {
  const limit = typeof width === 'number' ? () => width : width;
  let next = 0;
  const take = typeof items === 'function' ? items : () => (next < items.length ? items[next++] : null);
  let active = 0;
  let failed = false;
  return new Promise<void>((resolve, reject) => {
    const fill = () => {
      if (failed) return;
      while (!stopped() && active < Math.max(1, limit())) {
        const item = take();
        if (item === null) break;
        active++;
        work(item).then(
          () => {
            active--;
            fill();
          },
          (err) => {
            failed = true;
            reject(err);
          },
        );
      }
      if (active === 0) resolve();
    };
    fill();
  });
}
