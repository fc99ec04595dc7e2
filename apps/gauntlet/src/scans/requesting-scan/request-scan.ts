import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { monthStart, nextMonthStart } from '@gauntlet/auth';
import { CiGatePolicy, Plan, Profile, scanDecider, streams } from '@gauntlet/domain';
import type { ScanDoc, TargetDoc } from '@gauntlet/read-models';
import { ProblemException } from '../../http/problem';
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
    const docs = this.runtime.infra.documents;
    const target = await docs.collection<TargetDoc>('targets').get(c.target_id);
    if (!target || target.deleted || target.account_id !== c.account_id) throw new ProblemException(404, 'Target not found.');

    const now = new Date();
    const quota = this.runtime.config.scanQuota[c.plan];
    if (quota !== null) {
      // counted from the read model: a burst of parallel requests can overshoot by a few, which
      // is the accepted price of not serialising every scan request of an account
      const used = await docs.collection<ScanDoc>('scans').count({ account_id: c.account_id, created_month: now.toISOString().slice(0, 7) });
      if (used >= quota) {
        const retryAfter = Math.ceil((nextMonthStart(now).getTime() - now.getTime()) / 1000);
        throw new ProblemException(429, `The ${c.plan} plan allows ${quota} scans per calendar month; ${used} were started since ${monthStart(now).toISOString().slice(0, 10)}.`, {
          slug: 'scan-quota', title: 'Scan quota exhausted', headers: { 'Retry-After': String(retryAfter) }, extensions: { plan: c.plan, quota, used },
        });
      }
    }

    const scan_id = randomUUID();
    const created_at = now.toISOString();
    await this.runtime.commit(
      scanDecider,
      streams.scan(scan_id),
      { type: 'RequestScan', scan_id, account_id: c.account_id, target_id: c.target_id, target_name: target.name, profile: c.profile, origin: c.origin, fail_threshold: c.fail_threshold, ...(c.gate && { gate: c.gate }), now: created_at },
      c.context,
    );
    return { id: scan_id, status: 'pending', created_at, target_id: c.target_id, profile: c.profile };
  }
}
