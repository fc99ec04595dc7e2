import { probesFor } from '../probes/catalogue';
import { Probe } from '../probes/probe';
import { Attempts } from './attempts';
import { Conversations } from './conversations';
import { FindingBook } from './findings';
import { interleaveByCategory, selectProbes } from './plan';
import { ScanRecorder } from './scan-recorder';
import { TargetHealth } from './target-health';
import { DEFAULT_LIMITS, EngineLimits, PROFILE_PLANS, ProfilePlan, RunScanInput } from './types';
import { verdictPolicy } from './verdict-policy';
import { pool, Waits } from './waits';

/**
 * One scan's parts, each with one owner, made once and handed to the phases: the plan and its
 * probes, the conversations and their waits, the target's health, the attempts, the finding book
 * and the recorder. One stop for everything in flight: the caller's abort, a sink failure or a
 * lost target trip it. `close` releases what the scan holds, on every path.
 */
export class ScanRun {
  readonly limits: EngineLimits;
  readonly plan: ProfilePlan;
  /** the catalogue's probes for this scan, categories interleaved */
  readonly probes: Probe[];
  readonly stop = new AbortController();
  readonly waits: Waits;
  readonly conversations: Conversations;
  readonly health: TargetHealth;
  readonly recorder: ScanRecorder;
  readonly book: FindingBook;
  readonly attempts: Attempts;
  private readonly onAbort = () => this.stop.abort();

  constructor(readonly input: RunScanInput) {
    this.limits = { ...DEFAULT_LIMITS, ...input.limits };
    this.plan = PROFILE_PLANS[input.profile];
    this.probes = interleaveByCategory(selectProbes(probesFor(input.profile), input.selection));
    input.signal.addEventListener('abort', this.onAbort, { once: true });
    this.waits = new Waits(this.stop.signal, Math.min(250, Math.max(10, this.limits.messageTimeoutMs / 10)));
    this.conversations = new Conversations(input.driver, this.waits, this.limits.messageTimeoutMs, this.stop.signal);
    this.health = new TargetHealth(this.stop, this.limits.maxConsecutiveErrors);
    // the attacker's rounds are planned work only when there is an attacker (8 testable categories at most)
    const attackerBudget = input.attacker ? this.plan.attackerRounds * 8 : 0;
    const total = 1 + this.probes.length + this.plan.escalationBudget + attackerBudget + this.plan.amplifyBudget + 2;
    this.recorder = new ScanRecorder(input.sink, total, () => this.stop.abort(), () => input.driver.throughput?.() ?? null);
    this.book = new FindingBook(this.limits.maxRecordedChars);
    this.attempts = new Attempts({
      scanId: input.scanId, seed: input.seed, target: input.target, now: input.now, conversations: this.conversations, judge: verdictPolicy(input.judge),
      recorder: this.recorder, book: this.book, health: this.health, stop: this.stop.signal, maxRecordedChars: this.limits.maxRecordedChars,
    });
  }

  /** the caller stopped the scan, or a write failed: what is left is ending it early */
  get interrupted(): boolean {
    return this.input.signal.aborted || Boolean(this.recorder.error);
  }

  /** `work` over `items`, as many at once as the driver's pacing says the target takes, or the profile's number */
  inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
    const { driver } = this.input;
    const width = driver.concurrency ? () => driver.concurrency!() : this.plan.concurrency;
    return pool(items, width, () => this.health.stopped, work);
  }

  close(): void {
    this.input.signal.removeEventListener('abort', this.onAbort);
    this.stop.abort();
    this.waits.close();
  }
}
