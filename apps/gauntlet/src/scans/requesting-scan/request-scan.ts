import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CiGatePolicy, Plan, ProbeSelection, Profile, quotaMonth, ScanCommand, scanDecider, ScanOrigin, scanQuotaDecider, ScheduledBy, streams, targetDecider } from '@gauntlet/domain';
import type { Config } from '../../config/config';
import { CommandContext } from '../../platform/aggregates';
import { Clock } from '../../platform/clock';
import { CommandRunner } from '../../platform/command-runner';
import { CONFIG } from '../../platform/tokens';

/** scan requests of one account that may race for its quota stream before one gets 409 */
const QUOTA_WRITERS = 64;

export class RequestScan {
  constructor(
    readonly account_id: string,
    readonly plan: Plan,
    readonly target_id: string,
    readonly profile: Profile,
    readonly origin: 'api' | 'ci',
    readonly fail_threshold: number | null,
    readonly context: CommandContext,
    readonly gate?: CiGatePolicy,
    /** only these categories or probes (the CLI's --categories and --probes); absent: the profile's every probe */
    readonly selection?: ProbeSelection,
  ) {}
}

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
}

/**
 * The one write path of a scan request, for a person, a pipeline and a schedule alike: the
 * scan is decided first (its stream is new), so a request that may not scan spends nothing;
 * then one scan of the month is spent in the account's quota stream, whose append at the
 * revision it counted at keeps parallel requests from passing the plan together.
 */
export async function requestScan(runner: CommandRunner, config: Pick<Config, 'scanQuota'>, r: ScanRequest, created_at: string, context: CommandContext): Promise<RequestedScan> {
  const target = await runner.state(targetDecider, streams.target(r.target_id));
  const scan_id = r.scan_id ?? randomUUID();
  const request: ScanCommand = {
    type: 'RequestScan', scan_id, account_id: r.account_id, target_id: r.target_id, profile: r.profile, origin: r.origin, fail_threshold: r.fail_threshold,
    ...(r.gate && { gate: r.gate }), ...(r.scheduled_by && { scheduled_by: r.scheduled_by }), ...(r.selection && { selection: r.selection }), now: created_at,
    target: target.id ? { account_id: target.account_id, name: target.settings?.name ?? '', deleted: target.deleted } : null,
  };
  scanDecider.decide(request, scanDecider.initialState());
  const allowed = config.scanQuota[r.plan];
  if (allowed !== null) {
    const month = quotaMonth(created_at);
    await runner.append(
      scanQuotaDecider,
      streams.scanQuota(r.account_id, month),
      { type: 'SpendScanQuota', account_id: r.account_id, month, scan_id, plan: r.plan, allowed, now: created_at },
      context,
      // every scan request of the account writes this stream: a CI matrix starts many at once
      { attempts: QUOTA_WRITERS },
    );
  }
  await runner.commit(scanDecider, streams.scan(scan_id), request, context);
  return { id: scan_id, status: 'pending', created_at, target_id: r.target_id, profile: r.profile };
}

@CommandHandler(RequestScan)
export class RequestScanHandler implements ICommandHandler<RequestScan, RequestedScan> {
  constructor(private readonly runner: CommandRunner, private readonly clock: Clock, @Inject(CONFIG) private readonly config: Config) {}

  execute(c: RequestScan): Promise<RequestedScan> {
    const { account_id, plan, target_id, profile, origin, fail_threshold, gate, selection } = c;
    return requestScan(this.runner, this.config, { account_id, plan, target_id, profile, origin, fail_threshold, ...(gate && { gate }), ...(selection && { selection }) }, this.clock.iso(), c.context);
  }
}
