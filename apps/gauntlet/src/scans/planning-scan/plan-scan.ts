import { ApiFormat, ProbeSelection, Profile, RequestPlan, requireValidBudget, ScanBudget, ScanMode } from '@gauntlet/domain';
import type { DocumentStore } from '@gauntlet/read-models';
import { agentToolsToPlan, planScan, ScanTools } from '@gauntlet/scanner';
import type { Config } from '../../config/config';
import { TargetReader } from '../../targets/target-reader';
import { knownOfTarget } from '../previous-scan';

/** A target as its plan needs it: what it is, how fast it may be asked, what its agent is offered. */
export interface PlannedTarget {
  /** its id once registered: its scans are seeded by it, and its previous scans are what is known of it */
  id: string | null;
  scan_mode: ScanMode;
  api_format: ApiFormat | null;
  max_requests_per_second: number | null;
  tools?: unknown;
}

/**
 * A scan's plan without the scan (`POST /api/scans` with plan_only, `gauntlet scan --plan`): worked
 * out from the target as its read model has it, the profile, the seed its scans use (the target's
 * id) and what its previous scan spent, as the scanner works it out when the scan starts. It sends
 * nothing, starts nothing and spends no quota: a question, not a command.
 */
export class ScanPlanner {
  constructor(private readonly targets: TargetReader, private readonly docs: DocumentStore, private readonly config: Pick<Config, 'callbackBaseUrl' | 'callbackDomain' | 'attacker' | 'judge'>) {}

  /** the plan of a scan of the caller's target (404 for another account's, or none) */
  async plan(account_id: string, target_id: string, profile: Profile, budget: ScanBudget | null): Promise<RequestPlan> {
    if (budget) requireValidBudget(budget);
    const target = await this.targets.owned(account_id, target_id);
    return this.planFor({ ...target, id: target._id }, { profile, budget });
  }

  /**
   * The plan of a scan of `target`, registered or not yet (`seed`: what its first scan will be seeded
   * by is not known before it is registered; the plan's words then differ from the scan's by a few
   * tokens). `pace`: measured just before, when asked for.
   */
  async planFor(
    target: PlannedTarget,
    scan: { profile: Profile; selection?: ProbeSelection; budget: ScanBudget | null; seed?: string; pace?: { requests_per_second: number; source: 'measured' } | null },
  ): Promise<RequestPlan> {
    const known = target.id ? await knownOfTarget(this.docs, target.id, scan.profile, scan.selection) : null;
    const { config } = this;
    return planScan({
      target: { scan_mode: target.scan_mode, api_format: target.api_format, max_requests_per_second: target.max_requests_per_second },
      tools: await agentToolsToPlan({ scan_mode: target.scan_mode, api_format: target.api_format, tools: (target.tools ?? null) as ScanTools | null }),
      profile: scan.profile, selection: scan.selection, seed: target.id ?? scan.seed ?? 'unregistered',
      callbacks: { baseUrl: config.callbackBaseUrl, ...(config.callbackDomain && { domain: config.callbackDomain }) },
      models: { attacker: Boolean(config.attacker), judge: Boolean(config.judge) },
      budget: scan.budget, pace: scan.pace ?? known?.pace ?? null, previous: known?.previous ?? null,
    });
  }
}
