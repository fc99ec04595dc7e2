import type { Phase, ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { ScanSink } from './types';

/**
 * The engine's side of the sink: writes go out one at a time (one stream, one writer) so progress
 * stays monotonic, and the first failed write (a cancelled scan refuses them) stops the scan.
 * Progress is the share of the planned work done, 0..99 until the scan ends.
 */
export class ScanRecorder {
  private chain: Promise<void> = Promise.resolve();
  /** the first write that failed */
  error: unknown = null;
  private done = 0;
  private current = 0;

  constructor(
    private readonly sink: ScanSink,
    /** units of planned work */
    private readonly total: number,
    private readonly onFailure: () => void,
  ) {}

  get progress(): number {
    return this.current;
  }

  /** `units` more of the planned work done; the progress after it */
  advance(units = 1): number {
    this.done += units;
    this.current = Math.max(this.current, Math.min(99, Math.floor((this.done * 100) / this.total)));
    return this.current;
  }

  /** counts the work up to `units` as done (skipped work), without reporting progress yet */
  reach(units: number): void {
    this.done = Math.max(this.done, units);
  }

  /** the work done is set to `units`, whatever was counted */
  settle(units: number): void {
    this.done = units;
  }

  private write(f: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.error) throw this.error;
      try {
        await f();
      } catch (e) {
        this.error ??= e;
        this.onFailure();
        throw e;
      }
    });
    return this.chain;
  }

  enter(phase: Phase): Promise<void> {
    return this.write(() => this.sink.enterPhase(phase, this.current));
  }

  recordAttempt(attempt: ProbeAttempt, progress: number): Promise<void> {
    return this.write(() => this.sink.recordAttempt(attempt, progress));
  }

  recordVulnerability(v: Vulnerability): Promise<void> {
    return this.write(() => this.sink.recordVulnerability(v));
  }

  /** every write so far has gone out (rejects with the first failure) */
  flushed(): Promise<void> {
    return this.chain;
  }
}
