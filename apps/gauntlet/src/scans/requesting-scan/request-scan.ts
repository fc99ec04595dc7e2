import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CiGatePolicy, Plan, ProbeSelection, Profile, quotaMonth, ScanBudget, ScanCommand, scanDecider, ScanOrigin, scanQuotaDecider, ScheduledBy, streams, targetDecider } from '@gauntlet/domain';
import type { Config } from '../../config/config';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { CONFIG } from '../../platform/tokens';

/** scan requests of one account that may race for its quota stream before one gets 409 */
const QUOTA_WRITERS = 64;

export class RequestScan extends Command<{
  account_id: string;
  plan: Plan;
  target_id: string;
  profile: Profile;
  origin: 'api' | 'ci';
  fail_threshold: number | null;
  context: CommandContext;
  gate?: CiGatePolicy;
  /** only these categories or probes (the CLI's --categories and --probes); absent: the profile's every probe */
  selection?: ProbeSelection;
  /** what the scan may spend, and the prices it is counted at */
  budget?: ScanBudget | null;
}>() {}

export interface RequestedScan {
  id: string;
  status: 'pending';
  created_at: string;
  target_id: string;
  profile: Profile;
}

export interface ScanRequest {
  account_id: string;
  plan: Plan;
  target_id: string;
  profile: Profile;
  origin: ScanOrigin;
  fail_threshold: number | null;
  gate?: CiGatePolicy;
  /** a schedule's firing: the id derives from (schedule, due time, target), so asking again is the same scan */
  scan_id?: string;
  scheduled_by?: ScheduledBy;
  /** only these categories or probes (the CLI's --categories and --probes); absent: the profile's every probe */
  selection?: ProbeSelection;
  budget?: ScanBudget | null;
}

/**
 * The one write path of a scan request, for a person, a pipeline and a schedule alike, deciding
 * once: the scan is decided on its stream's state (the target is the caller's and live, else
 * 404), then, before that decision is appended, one scan of the month is spent in the account's
 * quota stream, whose append at the revision it counted at keeps parallel requests from passing
 * the plan together (else 429, and the scan stream is left unwritten). A request that may not
 * scan spends nothing. A conflict on the scan stream (a schedule's firing asked for twice) decides
 * again; the same scan id is never spent twice, and a scan that exists is not asked for again.
 */
export async function requestScan(writePath: WritePath, config: Pick<Config, 'scanQuota'>, r: ScanRequest, created_at: string, context: CommandContext): Promise<RequestedScan> {
  const target = await writePath.state(targetDecider, streams.target(r.target_id));
  const scan_id = r.scan_id ?? randomUUID();
  const request: ScanCommand = {
    type: 'RequestScan', scan_id, account_id: r.account_id, target_id: r.target_id, profile: r.profile, origin: r.origin, fail_threshold: r.fail_threshold,
    ...(r.gate && { gate: r.gate }), ...(r.scheduled_by && { scheduled_by: r.scheduled_by }), ...(r.selection && { selection: r.selection }), ...(r.budget && { budget: r.budget }), now: created_at,
    target: target.id ? { account_id: target.account_id, name: target.settings?.name ?? '', deleted: target.deleted } : null,
  };
  const allowed = config.scanQuota[r.plan];
  const month = quotaMonth(created_at);
  // an unlimited plan keeps no count
  const spendQuota = allowed === null ? undefined : () =>
    writePath.decide(
      scanQuotaDecider,
      streams.scanQuota(r.account_id, month),
      { type: 'SpendScanQuota', account_id: r.account_id, month, scan_id, plan: r.plan, allowed, now: created_at },
      context,
      // every scan request of the account writes this stream: a CI matrix starts many at once
      { attempts: QUOTA_WRITERS },
    );
  await writePath.commit(scanDecider, streams.scan(scan_id), request, context, { beforeAppend: spendQuota });
  return { id: scan_id, status: 'pending', created_at, target_id: r.target_id, profile: r.profile };
}

@CommandHandler(RequestScan)
export class RequestScanHandler implements ICommandHandler<RequestScan, RequestedScan> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock, @Inject(CONFIG) private readonly config: Config) {}

  execute(c: RequestScan): Promise<RequestedScan> {
    const { account_id, plan, target_id, profile, origin, fail_threshold, gate, selection, budget } = c;
    return requestScan(this.writePath, this.config, { account_id, plan, target_id, profile, origin, fail_threshold, ...(gate && { gate }), ...(selection && { selection }), ...(budget && { budget }) }, this.clock.iso(), c.context);
  }
}
