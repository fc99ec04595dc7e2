import { PLANNED_PHASES, type RequestPlan, type ToolDefinition } from '@gauntlet/domain';
import { CallbackPlanting } from '../callbacks/planting';
import { CallbackTally } from '../callbacks/hearing';
import { Probe } from '../probes/probe';
import { Attempts } from './attempts';
import { stableId } from '../ids';
import { Conversations } from './conversations';
import { FindingBook } from './findings';
import { probesOfScan } from './plan';
import { planScanWork } from './request-plan';
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
  /** what the scan will send, worked out before it sends anything: what its progress counts against */
  readonly requestPlan: RequestPlan;
  /** what a scan stopped at its budget did not finish: the phases and categories whose work was cut (filled as it stops) */
  readonly unfinished = { phases: new Set<string>(), categories: new Set<string>() };
  /** the catalogue's probes for this scan, categories interleaved */
  readonly probes: Probe[];
  readonly stop = new AbortController();
  readonly waits: Waits;
  readonly conversations: Conversations;
  readonly health: TargetHealth;
  readonly recorder: ScanRecorder;
  readonly book: FindingBook;
  readonly attempts: Attempts;
  /** the addresses its attempts planted, when a listener hears the scan */
  readonly callbacks: CallbackPlanting | null;
  /** what requests to the planted addresses prove while the scan runs (the live count) */
  readonly heard: CallbackTally | null;
  private readonly onAbort = () => this.stop.abort();
  /** what the scan has said about itself already (each note once) */
  private readonly noted = new Set<string>();

  /** `tools`: what the target's agent is offered (agent probes that cannot use them are skipped, not counted) */
  constructor(readonly input: RunScanInput, readonly tools: readonly ToolDefinition[] = []) {
    this.limits = { ...DEFAULT_LIMITS, ...input.limits };
    this.plan = PROFILE_PLANS[input.profile];
    this.callbacks = input.callbacks ? new CallbackPlanting(input.callbacks, input.scanId) : null;
    this.heard = this.callbacks && new CallbackTally(this.callbacks, input.scanId, input.target, input.callbacks?.tallyMs);
    this.probes = probesOfScan(input.profile, input.selection, input.callbacks ?? null, tools);
    input.signal.addEventListener('abort', this.onAbort, { once: true });
    this.waits = new Waits(this.stop.signal, Math.min(250, Math.max(10, this.limits.messageTimeoutMs / 10)));
    this.conversations = new Conversations(input.driver, this.waits, this.limits.messageTimeoutMs, this.stop.signal);
    this.health = new TargetHealth(this.stop, this.limits.maxConsecutiveErrors);
    const work = planScanWork({
      target: input.target, tools, profile: input.profile, selection: input.selection, seed: input.seed, callbacks: input.callbacks ?? null,
      models: { attacker: Boolean(input.attacker), judge: Boolean(input.judge) }, budget: input.budget, pace: input.known?.pace, previous: input.known?.previous,
    });
    this.requestPlan = work.plan;
    const meter = input.meters?.target;
    this.recorder = new ScanRecorder(input.sink, work.progressUnits, () => this.stop.abort(), () => input.driver.throughput?.() ?? null, () => meter?.usage.requests ?? null);
    this.book = new FindingBook(this.limits.maxRecordedChars);
    this.attempts = new Attempts({
      scanId: input.scanId, seed: input.seed, target: input.target, now: input.now, conversations: this.conversations, judge: verdictPolicy(input.judge),
      recorder: this.recorder, book: this.book, health: this.health, callbacks: this.callbacks, heard: this.heard, stop: this.stop.signal, maxRecordedChars: this.limits.maxRecordedChars,
      agent: { tools, toolsRefused: (reason) => void this.note('tools-refused', `The target's API refused tools (${reason.slice(0, 200)}): it was scanned without them from then on.`) },
    });
  }

  /**
   * Says something about the scan once, where its attempts are kept: an attempt of the recon phase
   * (never scored) named `scan-note`, its one turn the note. Later calls with the same kind are dropped.
   */
  async note(kind: string, text: string): Promise<void> {
    if (this.noted.has(kind)) return;
    this.noted.add(kind);
    await this.recorder
      .recordAttempt(
        {
          attempt_id: stableId(this.input.scanId, 'note', kind), probe_id: 'scan-note', category: 'LLM00:2025', technique: kind, converters: [], phase: 'recon',
          turns: [{ role: 'system', content: text }], verdict: { detector: 'engine', outcome: 'resisted', matched: null, confidence: 1 }, latency_ms: 0,
        },
        this.recorder.progress,
      )
      .catch(() => undefined);
  }

  /**
   * Where the scan stood when its budget stopped it: the phase it was in and every later one that
   * sends requests, and the categories whose work was cut (the caller names them).
   */
  cutAtBudget(categories: Iterable<string>): void {
    if (!this.health.budgetReached) return;
    const from = (PLANNED_PHASES as readonly string[]).indexOf(this.recorder.phase);
    for (const phase of PLANNED_PHASES.slice(Math.max(0, from))) this.unfinished.phases.add(phase);
    for (const category of categories) this.unfinished.categories.add(category);
  }

  /** the caller stopped the scan, or a write failed: what is left is ending it early */
  get interrupted(): boolean {
    return this.input.signal.aborted || Boolean(this.recorder.error);
  }

  /** conversations the target takes at once now: what the driver's pacing says, or the profile's number */
  width(): number {
    const { driver } = this.input;
    return driver.concurrency ? driver.concurrency() : this.plan.concurrency;
  }

  /**
   * `work` over `items` (or over what a source gives as room frees up: see pool), as many at once
   * as the target takes (width)
   */
  inParallel<T>(items: readonly T[] | (() => T | null), work: (item: T) => Promise<void>): Promise<void> {
    return pool(items, () => this.width(), () => this.health.stopped, work);
  }

  close(): void {
    this.input.signal.removeEventListener('abort', this.onAbort);
    this.stop.abort();
    this.waits.close();
  }
}
