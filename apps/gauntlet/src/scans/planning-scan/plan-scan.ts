import { Profile, RequestPlan, requireValidBudget, ScanBudget } from '@gauntlet/domain';
import type { DocumentStore } from '@gauntlet/read-models';
import { agentToolsToPlan, planScan, ScanTools } from '@gauntlet/scanner';
import type { Config } from '../../config/config';
import { TargetReader } from '../../targets/target-reader';
import { knownOfTarget } from '../previous-scan';

/**
 * A scan's plan without the scan (`POST /api/scans` with plan_only): worked out from the target as
 * its read model has it, the profile, the seed its scans use (the target's id) and what its previous
 * scan spent, as the scanner works it out when the scan starts. It sends nothing, starts nothing and
 * spends no quota: a question, not a command.
 */
export class ScanPlanner {
  constructor(private readonly targets: TargetReader, private readonly docs: DocumentStore, private readonly config: Pick<Config, 'callbackBaseUrl' | 'callbackDomain' | 'attacker' | 'judge'>) {}

  async plan(account_id: string, target_id: string, profile: Profile, budget: ScanBudget | null): Promise<RequestPlan> {
    if (budget) requireValidBudget(budget);
    const target = await this.targets.owned(account_id, target_id);
    const known = await knownOfTarget(this.docs, target._id, profile, undefined);
    const { config } = this;
    return planScan({
      target: { scan_mode: target.scan_mode, api_format: target.api_format, max_requests_per_second: target.max_requests_per_second },
      tools: await agentToolsToPlan({ scan_mode: target.scan_mode, api_format: target.api_format, tools: (target.tools ?? null) as ScanTools | null }),
      profile, seed: target._id,
      callbacks: { baseUrl: config.callbackBaseUrl, ...(config.callbackDomain && { domain: config.callbackDomain }) },
      models: { attacker: Boolean(config.attacker), judge: Boolean(config.judge) },
      budget, pace: known?.pace ?? null, previous: known?.previous ?? null,
    });
  }
}
