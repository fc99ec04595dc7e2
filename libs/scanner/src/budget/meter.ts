import { BUDGET_STOP, BudgetLimit, limitPassed, NO_USAGE, ScanBudget, Usage } from '@gauntlet/domain';

/** A request was not sent: it would have crossed the scan's budget (or the budget was reached before). */
export class BudgetReached extends Error {
  constructor(readonly limit: BudgetLimit) {
    super(`${BUDGET_STOP} (${limit})`);
    this.name = 'BudgetReached';
  }
}

/**
 * What one party of a scan spends (the target, the attacker model, the judge model), counted
 * before each request goes out, so a budget holds exactly: a request is counted (reserved) first,
 * and one that would cross the budget is refused before it is sent, however many are in flight.
 * An answer is counted as it is read: until it is read whole, its bytes stand for it (an answer's
 * text, as estimateTokens counts it, never has more tokens than half its bytes), and one that would
 * cross the budget is cut there. Once a limit is reached nothing more is sent. No I/O, no clock.
 * (A chat page's answer is read off the page whole: it is counted when it is, and cannot be cut.)
 */
export class SpendMeter {
  private spent: Usage = { ...NO_USAGE };
  /** tokens held for answers being read: the bound their bytes give, until each is read whole */
  private reading = 0;
  private retried = 0;
  private stopped: BudgetLimit | null = null;

  constructor(readonly budget: ScanBudget | null = null) {}

  get usage(): Usage {
    return { ...this.spent };
  }

  /** requests that repeated one that failed or was throttled (counted in usage.requests too) */
  get retries(): number {
    return this.retried;
  }

  /** the limit the scan reached, or null while it may go on */
  get reached(): BudgetLimit | null {
    return this.stopped;
  }

  /**
   * A request with `tokensIn` tokens is about to go out: counted now, or refused with BudgetReached
   * (counting nothing) when it would cross the budget. `retry`: it repeats one that failed.
   */
  send(tokensIn: number, retry = false): Outgoing {
    if (this.stopped) throw new BudgetReached(this.stopped);
    const next: Usage = { requests: this.spent.requests + 1, tokens_sent: this.spent.tokens_sent + tokensIn, tokens_received: this.spent.tokens_received + this.reading };
    this.refuseIfPassed(next);
    this.spent.requests++;
    this.spent.tokens_sent += tokensIn;
    if (retry) this.retried++;
    return new Outgoing(this);
  }

  /** @internal an answer's hold grew from `from` to `to` tokens (refused, holding nothing more, when it would cross) */
  hold(from: number, to: number): void {
    const next: Usage = { ...this.spent, tokens_received: this.spent.tokens_received + this.reading - from + to };
    this.refuseIfPassed(next);
    this.reading += to - from;
  }

  /** @internal an answer was read whole (`tokens`), or given up (0): its hold gives way to what it counts */
  settle(held: number, tokens: number): void {
    this.reading -= held;
    this.spent.tokens_received += tokens;
  }

  private refuseIfPassed(next: Usage): void {
    const passed = limitPassed(next, this.budget);
    if (!passed) return;
    this.stopped = passed;
    throw new BudgetReached(passed);
  }
}

/** One request that went out: its answer counted as it is read. */
export class Outgoing {
  private held = 0;
  private done = false;

  constructor(private readonly meter: SpendMeter) {}

  /**
   * `bytes` of the answer read so far: throws BudgetReached when what it may still hold would cross
   * the budget (the caller stops reading). Only a budget in tokens or cost is affected.
   */
  reading(bytes: number): void {
    if (this.done) return;
    const bound = Math.ceil(bytes / 2);
    if (bound <= this.held) return;
    this.meter.hold(this.held, bound);
    this.held = bound;
  }

  /** the answer was read: `tokens` of it counted (never more than its bytes held, when they were counted) */
  received(tokens: number): void {
    this.settle(this.held > 0 ? Math.min(tokens, this.held) : tokens);
  }

  /** the answer was cut at the budget: what was read of it counts, at the bound its bytes gave */
  cut(): void {
    this.settle(this.held);
  }

  /** no answer came (a failure): the request counts, its hold is let go */
  failed(): void {
    this.settle(0);
  }

  private settle(tokens: number): void {
    if (this.done) return;
    this.done = true;
    this.meter.settle(this.held, tokens);
  }
}

/** What a scan spends, party by party: the target's requests are budgeted, the models' are counted apart. */
export interface ScanMeters {
  target: SpendMeter;
  attacker?: SpendMeter;
  judge?: SpendMeter;
}
