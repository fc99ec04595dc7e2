import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CiGatePolicy, Plan, Profile, quotaMonth, scanDecider, streams, targetDecider } from '@gauntlet/domain';
import type { Config } from '../../config/config';
import { CommandContext } from '../../platform/aggregates';
import { Clock } from '../../platform/clock';
import { CommandRunner } from '../../platform/command-runner';
import { CONFIG } from '../../platform/tokens';
import { ScanReader } from '../scan-reader';

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
  constructor(private readonly runner: CommandRunner, private readonly clock: Clock, private readonly scans: ScanReader, @Inject(CONFIG) private readonly config: Config) {}

  async execute(c: RequestScan): Promise<RequestedScan> {
    const created_at = this.clock.iso();
    // the decider decides on facts: the target as its own stream has it, and the scans the account
    // started this month (counted from the read model: a burst of parallel requests can overshoot
    // by a few, the accepted price of not serialising every scan request of an account)
    const target = await this.runner.state(targetDecider, streams.target(c.target_id));
    const allowed = this.config.scanQuota[c.plan];
    const used = allowed === null ? 0 : await this.scans.countInMonth(c.account_id, quotaMonth(created_at));
    const scan_id = randomUUID();
    await this.runner.commit(
      scanDecider,
      streams.scan(scan_id),
      {
        type: 'RequestScan', scan_id, account_id: c.account_id, target_id: c.target_id, profile: c.profile, origin: c.origin, fail_threshold: c.fail_threshold, ...(c.gate && { gate: c.gate }), now: created_at,
        target: target.id ? { account_id: target.account_id, name: target.settings?.name ?? '', deleted: target.deleted } : null,
        quota: { plan: c.plan, allowed, used },
      },
      c.context,
    );
    return { id: scan_id, status: 'pending', created_at, target_id: c.target_id, profile: c.profile };
  }
}
