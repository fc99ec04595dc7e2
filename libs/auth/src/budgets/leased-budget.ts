import { BudgetStore, BudgetWindow, windowAt } from './budget-store';

export interface Spent {
  allowed: boolean;
  /** units left in the window, as far as this process knows (exact when one process spends) */
  remaining: number;
  /** ms until the window ends and the budget is whole again */
  resetMs: number;
}

interface Lease {
  window: BudgetWindow;
  /** units taken from the store and not used yet */
  held: number;
  /** the store's count after this process's last take */
  known: number;
  /** the store had nothing left: nothing to ask until the window ends */
  exhausted: boolean;
  refilling?: Promise<void>;
}

/**
 * One budget (a limit per key per window) spent by many processes through a shared BudgetStore
 * without a store round trip per unit: a process takes units in chunks (an eighth of what it last
 * saw left, at least one, at most `maxChunk`) and spends them locally.
 *
 * The bound that holds: the store never grants more than `limit` units in a window, so all
 * processes together never allow more than `limit` (not one more). The cost is the other way:
 * units a process took and did not use are lost to the others until the window ends, at most
 * its last chunk, at most limit/8 each (with two processes and 120 a minute, a client that
 * alternates between them gets all 120; one that moves to the other process gets at least 105).
 * A process that restarts forgets what it held, so a restart can only lower what is left.
 */
export class LeasedBudget {
  private readonly leases = new Map<string, Lease>();
  private prunedFor = 0;

  constructor(
    private readonly store: BudgetStore,
    readonly limit: number,
    readonly windowMs: number,
    private readonly options: { maxChunk?: number; now?: () => number } = {},
  ) {}

  async spend(key: string): Promise<Spent> {
    for (;;) {
      const now = this.now();
      const lease = this.leaseFor(key, now);
      const resetMs = lease.window.end - now;
      if (lease.held > 0) {
        lease.held -= 1;
        return { allowed: true, remaining: Math.max(0, this.limit - lease.known) + lease.held, resetMs };
      }
      if (lease.exhausted) return { allowed: false, remaining: 0, resetMs };
      // one take in flight per key: requests arriving meanwhile wait for it rather than each asking
      lease.refilling ??= this.refill(key, lease).finally(() => (lease.refilling = undefined));
      await lease.refilling;
    }
  }

  private async refill(key: string, lease: Lease): Promise<void> {
    const want = Math.max(1, Math.min(this.options.maxChunk ?? 64, Math.floor((this.limit - lease.known) / 8)));
    const { granted, spent } = await this.store.take(key, lease.window, want, this.limit);
    lease.known = spent;
    lease.held += granted;
    if (granted === 0) lease.exhausted = true;
  }

  private leaseFor(key: string, now: number): Lease {
    const window = windowAt(now, this.windowMs);
    let lease = this.leases.get(key);
    if (!lease || lease.window.start !== window.start) {
      if (this.prunedFor !== window.start) {
        // what was held for a past window is worth nothing now; memory stays one window's keys
        for (const [k, l] of this.leases) if (l.window.end <= now && !l.refilling) this.leases.delete(k);
        this.prunedFor = window.start;
      }
      lease = { window, held: 0, known: 0, exhausted: false };
      this.leases.set(key, lease);
    }
    return lease;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
