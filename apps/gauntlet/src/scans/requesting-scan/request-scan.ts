import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CiGatePolicy, Plan, ProbeSelection, Profile, quotaMonth, ScanCommand, scanDecider, scanQuotaDecider, streams, targetDecider } from '@gauntlet/domain';
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

@CommandHandler(RequestScan)
export class RequestScanHandler implements ICommandHandler<RequestScan, RequestedScan> {
  constructor(private readonly runner: CommandRunner, private readonly clock: Clock, @Inject(CONFIG) private readonly config: Config) {}

  async execute(c: RequestScan): Promise<RequestedScan> {
    const created_at = this.clock.iso();
    const target = await this.runner.state(targetDecider, streams.target(c.target_id));
    const scan_id = randomUUID();
    const request: ScanCommand = {
      type: 'RequestScan', scan_id, account_id: c.account_id, target_id: c.target_id, profile: c.profile, origin: c.origin, fail_threshold: c.fail_threshold, ...(c.gate && { gate: c.gate }), ...(c.selection && { selection: c.selection }), now: created_at,
      target: target.id ? { account_id: target.account_id, name: target.settings?.name ?? '', deleted: target.deleted } : null,
    };
    // the scan is decided first (its stream is new), so a request that may not scan spends nothing;
    // then one scan of the month is spent in the account's quota stream, whose append at the
    // revision it counted at keeps parallel requests from passing the plan together
    scanDecider.decide(request, scanDecider.initialState());
    const allowed = this.config.scanQuota[c.plan];
    if (allowed !== null) {
      const month = quotaMonth(created_at);
      await this.runner.append(
        scanQuotaDecider,
        streams.scanQuota(c.account_id, month),
        { type: 'SpendScanQuota', account_id: c.account_id, month, scan_id, plan: c.plan, allowed, now: created_at },
        c.context,
        // every scan request of the account writes this stream: a CI matrix starts many at once
        { attempts: QUOTA_WRITERS },
      );
    }
    await this.runner.commit(scanDecider, streams.scan(scan_id), request, c.context);
    return { id: scan_id, status: 'pending', created_at, target_id: c.target_id, profile: c.profile };
  }
}
