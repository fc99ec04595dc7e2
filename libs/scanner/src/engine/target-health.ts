import type { BudgetLimit } from '@gauntlet/domain';

/**
 * What the scan knows of whether it may go on sending: the target's health (whether it still
 * answers, and why the scan gives up on it) and its budget (reached: nothing more is sent). A target is given up on when it goes silent (and does not answer a harmless first
 * message either) or fails `maxConsecutiveErrors` attempts in a row; giving up stops everything in
 * flight (the scan's stop), and the scan ends partial with the reason. Told what happened, it
 * decides alone: no clock, no I/O.
 */
export class TargetHealth {
  private reason: string | null = null;
  private errorsInARow = 0;
  private budget: BudgetLimit | null = null;

  constructor(
    /** the scan's one stop: the caller's abort, a sink failure or a lost target trip it */
    private readonly stop: AbortController,
    private readonly maxConsecutiveErrors: number,
  ) {}

  /** nothing more is to be sent: the scan was stopped, the target given up on, or the budget reached */
  get stopped(): boolean {
    return this.stop.signal.aborted || this.reason !== null || this.budget !== null;
  }

  /** the limit of the scan's budget it reached (it ends partial, saying what it did not finish), or null */
  get budgetReached(): BudgetLimit | null {
    return this.budget;
  }

  /**
   * A request was refused at the scan's budget: nothing more is started. What is in flight goes on
   * (its requests are counted already, and their answers are worth judging) until its next request
   * is refused too.
   */
  atBudget(limit: BudgetLimit): void {
    // a target given up on first is why the scan ended; a budget reached after is its consequence
    if (this.reason !== null) return;
    this.budget ??= limit;
  }

  /** why the target was given up on (the partial scan's reason), or null while it answers */
  get unavailable(): string | null {
    return this.reason;
  }

  /** an answer came back: the run of errors is over */
  answered(): void {
    this.errorsInARow = 0;
  }

  /** a conversation went silent and the target no longer answers a harmless first message */
  lost(message: string): void {
    this.giveUp(`target stopped answering: ${message}`);
  }

  /** an attempt failed; too many in a row and the target counts as gone */
  failed(message: string): void {
    this.errorsInARow++;
    if (this.errorsInARow >= this.maxConsecutiveErrors) this.giveUp(`target failed ${this.errorsInARow} attempts in a row (last: ${message})`);
  }

  private giveUp(reason: string): void {
    // the first reason stands: what came after is its consequence
    this.reason ??= reason;
    this.stop.abort();
  }
}
