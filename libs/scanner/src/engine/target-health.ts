/**
 * What the scan knows of the target's health: whether it still answers, and why the scan gives
 * up on it. A target is given up on when it goes silent (and does not answer a harmless first
 * message either) or fails `maxConsecutiveErrors` attempts in a row; giving up stops everything in
 * flight (the scan's stop), and the scan ends partial with the reason. Told what happened, it
 * decides alone: no clock, no I/O.
 */
export class TargetHealth {
  private reason: string | null = null;
  private errorsInARow = 0;

  constructor(
    /** the scan's one stop: the caller's abort, a sink failure or a lost target trip it */
    private readonly stop: AbortController,
    private readonly maxConsecutiveErrors: number,
  ) {}

  /** nothing more is to be sent: the scan was stopped, or the target given up on */
  get stopped(): boolean {
    return this.stop.signal.aborted || this.reason !== null;
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
