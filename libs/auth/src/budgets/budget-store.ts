/**
 * The BudgetStore port: counters of limited things (requests of a client IP in a minute, report
 * downloads of an account in an hour) kept where every api process sees them, so scaling out
 * does not multiply a limit and a restart does not forget one. A budget is counted in fixed
 * windows: `key` within the window that starts at `window.start`.
 */
export interface BudgetWindow {
  /** ms since the epoch, inclusive */
  start: number;
  /** ms since the epoch, exclusive; the count may be forgotten after it */
  end: number;
}

export interface Taken {
  /** units granted, 0..want: never more than the limit has left */
  granted: number;
  /** units spent in the window after this take, by every process */
  spent: number;
}

export interface BudgetStore {
  /** atomically takes up to `want` units of a budget of `limit` units in the window */
  take(key: string, window: BudgetWindow, want: number, limit: number): Promise<Taken>;
  /** gives back units taken in the window and not used (a download that failed) */
  giveBack(key: string, window: BudgetWindow, units: number): Promise<void>;
  /** forgets every window that ended before `now` */
  sweep(now: number): Promise<void>;
  close(): Promise<void>;
}

/** the fixed window of `windowMs` that `now` falls in */
export function windowAt(now: number, windowMs: number): BudgetWindow {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, end: start + windowMs };
}
