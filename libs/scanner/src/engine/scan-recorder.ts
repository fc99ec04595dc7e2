import type { Phase, ProbeAttempt, ProvenWeakness, RequestPlan, Vulnerability } from '@gauntlet/domain';
import { AttemptFacts, ScanSink } from './types';

/**
 * The engine's side of the sink: writes go out one at a time (one stream, one writer) so progress
 * stays monotonic, and the first failed write (a cancelled scan refuses them) stops the scan.
 * Progress is the share of the planned work done, 0..99 until the scan ends. When the plan turns
 * out smaller than budgeted (escalation stopped early, fewer variants to try), the rest of the bar
 * is spread over the work that is really left (`replan`): the bar never jumps over skipped work.
 */
export class ScanRecorder {
  private chain: Promise<void> = Promise.resolve();
  /** the first write that failed */
  error: unknown = null;
  /** units done since the last replan, and the units the bar's rest stands for */
  private done = 0;
  private left: number;
  /** the progress the bar had at the last replan */
  private from = 0;
  private current = 0;
  /** distinct weaknesses proven so far (the engine's FindingBook size): never goes down */
  private findings = 0;
  /** weaknesses proven since the last attempt recorded: they go with the next one */
  private fresh: ProvenWeakness[] = [];
  /** the phase entered last */
  private entered: Phase = 'queued';

  constructor(
    private readonly sink: ScanSink,
    /** units of planned work */
    total: number,
    private readonly onFailure: () => void,
    /** requests a second the target takes now (the driver's pacing), null or absent: not known */
    private readonly throughput: () => number | null = () => null,
    /** requests sent to the target so far (its meter), null or absent: not counted */
    private readonly sent: () => number | null = () => null,
  ) {
    this.left = Math.max(1, total);
  }

  get progress(): number {
    return this.current;
  }

  get findingsSoFar(): number {
    return this.findings;
  }

  /** `units` more of the planned work done; the progress after it */
  advance(units = 1): number {
    this.done += units;
    const share = Math.min(1, this.done / this.left);
    this.current = Math.max(this.current, Math.min(99, Math.floor(this.from + (100 - this.from) * share)));
    return this.current;
  }

  /**
   * The work still to do is now known to be `units` (whatever was budgeted): the rest of the bar
   * stands for it, from where the bar is.
   */
  replan(units: number): void {
    this.from = this.current;
    this.done = 0;
    this.left = Math.max(1, units);
  }

  /** the count of weaknesses proven so far, and those just proven, carried by the next attempt recorded */
  proved(findings: number, weaknesses: readonly ProvenWeakness[] = []): void {
    this.findings = Math.max(this.findings, findings);
    this.fresh.push(...weaknesses);
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

  /** the phase the scan is in (the last one entered) */
  get phase(): Phase {
    return this.entered;
  }

  enter(phase: Phase): Promise<void> {
    this.entered = phase;
    return this.write(() => this.sink.enterPhase(phase, this.current));
  }

  /** the scan's plan, written before its first request (a sink that keeps none is not told) */
  plan(plan: RequestPlan): Promise<void> {
    const { sink } = this;
    return sink.recordPlan ? this.write(() => sink.recordPlan!(plan)) : Promise.resolve();
  }

  recordAttempt(attempt: ProbeAttempt, progress: number): Promise<void> {
    const findings = this.findings;
    const proved = this.fresh;
    this.fresh = [];
    const left = this.secondsLeft();
    const sent = this.sent();
    const facts: AttemptFacts = { findingsSoFar: findings, proved, ...(left !== null && { secondsLeft: left }), ...(sent !== null && { requestsSent: sent }) };
    return this.write(() => this.sink.recordAttempt(attempt, progress, facts));
  }

  /**
   * The time the work still planned should take: its requests over the requests a second the
   * target takes at the pace kept now (null until that is known). Where the CLI's "left" comes
   * from, and any estimate of a scan's time.
   */
  secondsLeft(): number | null {
    const perSecond = this.throughput();
    if (perSecond === null || !(perSecond > 0)) return null;
    return Math.round(Math.max(0, this.left - this.done) / perSecond);
  }

  recordVulnerability(v: Vulnerability): Promise<void> {
    return this.write(() => this.sink.recordVulnerability(v));
  }

  /** every write so far has gone out (rejects with the first failure) */
  flushed(): Promise<void> {
    return this.chain;
  }
}
