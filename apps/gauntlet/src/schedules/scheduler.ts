import { scheduleDecider, scheduleDue, ScheduleState, streams, unsettledScans } from '@gauntlet/domain';
import type { AccountDoc, DocumentStore } from '@gauntlet/read-models';
import type { Logger } from 'pino';
import type { Config } from '../config/config';
import type { CommandContext, WritePath } from '../platform/write-path';
import type { Clock } from '../platform/clock';
import { TargetReader } from '../targets/target-reader';
import { previousScanRunning, requestPlannedScan, scheduledScanId } from './firing-scans';
import { ActiveSchedule, passOrder } from './pass-order';
import { ScheduleReader } from './schedule-reader';

export interface SchedulerOptions {
  /** how often the schedules are looked at */
  tickMs: number;
  /** a due time older than this when first seen was missed (the schedulers were down): the catch-up policy decides */
  graceMs: number;
  /** names this scheduler in the log's metadata */
  id: string;
  /**
   * what one account may take of a pass: schedules looked at plus scans asked for (default 25).
   * The rest waits for the next pass, where the account's turn starts after what was done.
   */
  perAccountPerPass?: number;
  /** the longest a pass runs, whatever the accounts hold (default: the tick, at most 10 s); the next pass goes on from there at once */
  passBudgetMs?: number;
  /** schedules looked at at once (default 4) */
  parallel?: number;
}

export interface SchedulerDeps {
  writePath: WritePath;
  docs: DocumentStore;
  config: Pick<Config, 'scanQuota'>;
  clock: Clock;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** the pause before the next pass when one was cut short: others' work (the api, projections) gets its turn */
const BEHIND_PAUSE_MS = 100;

export interface TickReport {
  fired: number;
  missed: number;
  requested: number;
  refused: number;
  /** schedules left for the next pass: their account's share of this one was spent, or the pass's time */
  deferred?: number;
}

/** an account's share of one pass: each schedule looked at and each scan asked for takes one */
interface Share {
  left: number;
}

/**
 * The scheduler role: every tick, each active schedule's stream is read (the log's facts, never
 * the read model's) and the catch-up policy says whether a due time is to fire or was missed. The
 * firing is decided on the schedule's stream at its expected revision: with several schedulers
 * running, exactly one append wins and only its scheduler asks for the scans. Those go through
 * the same write path and quota as any other request, with ids derived from the firing, so a
 * scheduler that stopped half-way is finished by the next tick of any scheduler without doubles.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> | null = null;
  private stopped = true;
  private readonly schedules: ScheduleReader;
  private readonly targets: TargetReader;

  constructor(private readonly deps: SchedulerDeps, private readonly options: SchedulerOptions) {
    this.schedules = new ScheduleReader(deps.docs);
    this.targets = new TargetReader(deps.docs);
  }

  start(): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      let behind = false;
      this.ticking = this.tick()
        .then((report) => (behind = Boolean(report.deferred)))
        .catch((err) => this.deps.log.error({ err }, 'scheduler tick failed'))
        .finally(() => {
          this.ticking = null;
          // a pass cut short by its budget goes on almost at once: bounded passes, not a slower scheduler
          if (!this.stopped) this.timer = setTimeout(loop, behind ? Math.min(BEHIND_PAUSE_MS, this.options.tickMs) : this.options.tickMs);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  /** where each account's next turn starts in its list of schedules, and which account starts the next pass */
  private readonly cursors = new Map<string, number>();
  private passes = 0;

  /**
   * One pass over the active schedules, fair across accounts and bounded in time: accounts take
   * turns (round-robin, one schedule each per turn, the first account rotating from pass to pass),
   * each within its share of the pass (schedules looked at plus scans asked for), and the pass
   * stops at its time budget. What is left waits for the next pass, which starts each account
   * after what it did: one account with many schedules or a large tag delays its own schedules,
   * never another account's. A failure on one schedule never stops the others.
   */
  async tick(): Promise<TickReport> {
    const report: TickReport = { fired: 0, missed: 0, requested: 0, refused: 0, deferred: 0 };
    const perAccount = this.options.perAccountPerPass ?? 25;
    const budgetMs = this.options.passBudgetMs ?? Math.min(10_000, Math.max(100, this.options.tickMs));
    const deadline = Date.now() + budgetMs;
    const order = this.turns(await this.schedules.active(), perAccount);
    const shares = new Map<string, Share>();
    let next = 0;
    const worker = async () => {
      while (next < order.length) {
        const { id, account_id } = order[next++];
        const share = shares.get(account_id) ?? shares.set(account_id, { left: perAccount }).get(account_id)!;
        // the account's share went on scans its earlier schedules asked for, or the pass is out of time
        if (share.left <= 0 || Date.now() >= deadline) {
          report.deferred!++;
          continue;
        }
        share.left--;
        this.cursors.set(account_id, (this.cursors.get(account_id) ?? 0) + 1);
        try {
          await this.visit(id, report, share);
        } catch (err) {
          this.deps.log.error({ err, schedule_id: id }, 'schedule could not be handled this tick');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.options.parallel ?? 4) }, worker));
    if (report.deferred) this.deps.log.warn({ deferred: report.deferred }, 'scheduler pass left schedules for the next pass (an account\'s share or the pass\'s time was spent)');
    return report;
  }

  private turns(active: ActiveSchedule[], perAccount: number): ActiveSchedule[] {
    return passOrder(active, perAccount, this.cursors, this.passes++);
  }

  private async visit(schedule_id: string, report: TickReport, share: Share): Promise<void> {
    const { writePath, clock } = this.deps;
    const stream = streams.schedule(schedule_id);
    let state = await writePath.state(scheduleDecider, stream);
    const now = clock.iso();
    const due = scheduleDue(state, now, this.options.graceMs);
    const context = (due_at: string): CommandContext => ({ actor: `scheduler:${this.options.id}`, correlationId: `${schedule_id}@${due_at}` });

    if (due.kind === 'skip_missed') {
      const decided = await writePath.decide(scheduleDecider, stream, { type: 'RecordRunsMissed', due_at: due.due_at, missed: due.missed, now }, context(due.due_at));
      if (decided.events.length) {
        report.missed += due.missed;
        this.deps.log.warn({ schedule_id, due_at: due.due_at, missed: due.missed }, 'scheduled runs missed while no scheduler ran (catch-up: skip)');
      }
      state = decided.state;
    } else if (due.kind === 'fire') {
      const targets = await this.targetsOf(state);
      const planned = await Promise.all(
        targets.map(async (target_id) => ({ target_id, scan_id: scheduledScanId(schedule_id, due.due_at, target_id), busy: await previousScanRunning(this.deps.docs, state.account_id!, target_id) })),
      );
      const decided = await writePath.decide(scheduleDecider, stream, { type: 'FireSchedule', due_at: due.due_at, missed: due.missed, targets: planned, now }, context(due.due_at));
      // no events: another scheduler decided this due time first (or the schedule was paused
      // meanwhile); the winner asks for its scans, and a later tick finishes if it stopped half-way
      if (!decided.events.length) return;
      report.fired++;
      this.deps.log.info({ schedule_id, due_at: due.due_at, scans: planned.filter((p) => !p.busy).length, skipped: planned.filter((p) => p.busy).length }, 'schedule fired');
      state = decided.state;
    }
    await this.settle(schedule_id, state, report, context, share);
  }

  /** asks for the latest firing's scans not yet asked for (by whichever scheduler won it, or one that stopped half-way) */
  private async settle(schedule_id: string, state: ScheduleState, report: TickReport, context: (due_at: string) => CommandContext, share: Share): Promise<void> {
    const firing = state.last_firing;
    const unsettled = unsettledScans(state);
    if (!firing || !unsettled.length) return;
    const account = await this.deps.docs.collection<AccountDoc>('accounts').get(state.account_id!);
    if (!account) return this.deps.log.warn({ schedule_id }, 'the schedule\'s account is not in the read model yet: its scans are asked for next tick');
    // the latest firing of either kind: a deploy firing whose api request stopped half-way is finished here too
    for (const planned of unsettled) {
      // past the account's share, the rest of the firing is asked for next pass (it stays unsettled on the stream)
      if (share.left <= 0) {
        report.deferred!++;
        return;
      }
      share.left--;
      const { requested, refused } = await requestPlannedScan(this.deps, state, account.plan, firing.due_at, planned, context(firing.due_at));
      if (requested) report.requested++;
      if (refused) {
        report.refused++;
        this.deps.log.warn({ schedule_id, scan_id: planned.scan_id, reason: refused }, 'scheduled scan not started');
      }
    }
  }

  private async targetsOf(state: ScheduleState): Promise<string[]> {
    if (state.selector.target_id) return [state.selector.target_id];
    return (await this.targets.tagged(state.account_id!, state.selector.tag!)).map((t) => t._id);
  }

}
