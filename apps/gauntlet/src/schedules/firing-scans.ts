import { createHash } from 'node:crypto';
import { DomainError, Plan, scheduleDecider, ScheduleState, streams, type PlannedScan } from '@gauntlet/domain';
import type { DocumentStore, ScanDoc } from '@gauntlet/read-models';
import type { Config } from '../config/config';
import type { CommandContext, WritePath } from '../platform/write-path';
import type { Clock } from '../platform/clock';
import { requestScan } from '../scans/requesting-scan/request-scan';

/**
 * The id of the scan a firing asks for on a target: the same (schedule, firing, target) is always
 * the same scan. A cron firing is named by its due time, a deploy firing by `deploy:<deploy_id>`.
 */
export function scheduledScanId(schedule_id: string, firing: string, target_id: string): string {
  const h = createHash('sha256').update(`${schedule_id}\n${firing}\n${target_id}`).digest('hex');
  // shaped as a version 5 (name-based) UUID so every api route takes it
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const RUNNING: ScanDoc['status'][] = ['pending', 'running'];

/** a target whose previous scan is still pending or running gets no new one from a schedule */
export async function previousScanRunning(docs: DocumentStore, account_id: string, target_id: string): Promise<boolean> {
  const open = await docs.collection<ScanDoc>('scans').find({ account_id, target_id, status: { $in: RUNNING } }, { limit: 1 });
  return open.length > 0;
}

export interface FiringDeps {
  writePath: WritePath;
  docs: DocumentStore;
  config: Pick<Config, 'scanQuota'>;
  clock: Clock;
}

/**
 * Asks for one planned scan of a firing through the write path every scan request takes (target
 * ownership, the plan's quota). A scan that exists already is not asked for again; one the write
 * path refuses is recorded once on the schedule's stream (`ScheduledScanNotStarted`) and its reason
 * returned.
 */
export async function requestPlannedScan(deps: FiringDeps, state: ScheduleState, plan: Plan, due_at: string, planned: PlannedScan, context: CommandContext): Promise<{ requested: boolean; refused: string | null }> {
  if (await deps.docs.collection<ScanDoc>('scans').get(planned.scan_id)) return { requested: false, refused: null };
  try {
    await requestScan(
      deps.writePath, deps.config,
      {
        account_id: state.account_id!, plan, target_id: planned.target_id, profile: state.timing!.profile, origin: 'schedule', fail_threshold: null, scan_id: planned.scan_id, scheduled_by: { schedule_id: state.id!, due_at },
        ...(state.timing!.budget && { budget: state.timing!.budget }),
      },
      deps.clock.iso(), context,
    );
    return { requested: true, refused: null };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    // the plan's quota, or a target deleted meanwhile: recorded once, not asked for again
    await deps.writePath.decide(
      scheduleDecider, streams.schedule(state.id!),
      { type: 'RecordScanNotStarted', due_at, target_id: planned.target_id, scan_id: planned.scan_id, reason: err.message, now: deps.clock.iso() },
      context,
    );
    return { requested: false, refused: err.message };
  }
}

/** the firing's scans as the api's handlers receive them (a port built from the composition root) */
export class FiringScans {
  constructor(private readonly deps: FiringDeps) {}

  previousScanRunning(account_id: string, target_id: string): Promise<boolean> {
    return previousScanRunning(this.deps.docs, account_id, target_id);
  }

  request(state: ScheduleState, plan: Plan, due_at: string, planned: PlannedScan, context: CommandContext): Promise<{ requested: boolean; refused: string | null }> {
    return requestPlannedScan(this.deps, state, plan, due_at, planned, context);
  }
}
