import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { CiGatePolicy, Plan, Profile, quotaMonth, scanDecider, streams, targetDecider } from '@gauntlet/domain';
import type { ScanDoc } from '@gauntlet/read-models';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';

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
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute(c: RequestScan): Promise<RequestedScan> {
    const created_at = new Date().toISOString();
    // the decider decides on facts: the target as its own stream has it, and the scans the account
    // started this month (counted from the read model: a burst of parallel requests can overshoot
    // by a few, the accepted price of not serialising every scan request of an account)
    const { state: target } = await this.runtime.aggregates.load(targetDecider, streams.target(c.target_id));
    const allowed = this.runtime.config.scanQuota[c.plan];
    const used = allowed === null ? 0 : await this.runtime.infra.documents.collection<ScanDoc>('scans').count({ account_id: c.account_id, created_month: quotaMonth(created_at) });
    const scan_id = randomUUID();
    await this.runtime.commit(
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
