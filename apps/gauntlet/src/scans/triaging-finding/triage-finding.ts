import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { effectiveTriage, streams, triageDecider, TriageState } from '@gauntlet/domain';
import { findingTriage, FindingTriage } from '@gauntlet/assessment';
import type { ScanDoc } from '@gauntlet/read-models';
import { ProblemException } from '../../http/problem';
import { CommandContext } from '../../platform/aggregates';
import { Clock } from '../../platform/clock';
import { CommandRunner } from '../../platform/command-runner';
import { ScanReader } from '../scan-reader';

/** A person marks a finding open, a false positive, an accepted risk or fixed; it applies to its fingerprint on the target. */
export class TriageFinding {
  constructor(
    readonly scan: ScanDoc,
    readonly vulnerability_id: string,
    readonly decision: { state: TriageState; reason: string; expires_at: string | null },
    readonly context: CommandContext,
  ) {}
}

export interface TriagedFinding {
  scan_id: string;
  vulnerability_id: string;
  target_id: string;
  fingerprint: string;
  triage: FindingTriage;
}

@CommandHandler(TriageFinding)
export class TriageFindingHandler implements ICommandHandler<TriageFinding, TriagedFinding> {
  constructor(private readonly runner: CommandRunner, private readonly clock: Clock, private readonly scans: ScanReader) {}

  async execute(c: TriageFinding): Promise<TriagedFinding> {
    const { scan } = c;
    // the finding's fingerprint is a fact recorded when it was found; the decision is the triage decider's
    const vulnerability = await this.scans.vulnerability(scan._id, c.vulnerability_id);
    if (!vulnerability) throw new ProblemException(404, 'Vulnerability not found in this scan.');
    const now = this.clock.iso();
    const { state } = await this.runner.commit(
      triageDecider,
      streams.target(scan.target_id),
      {
        type: 'TriageFinding', account_id: scan.account_id, fingerprint: vulnerability.fingerprint, state: c.decision.state, reason: c.decision.reason,
        by: c.context.actor, expires_at: c.decision.expires_at, scan_id: scan._id, vulnerability_id: vulnerability.id, now,
      },
      c.context,
    );
    const decision = state.decisions[vulnerability.fingerprint];
    // reopening a finding nobody triaged records nothing: it is open, decided by no one
    const triage: FindingTriage = decision
      ? findingTriage(effectiveTriage(decision, scan.created_at, now)!)
      : { state: 'open', reason: c.decision.reason.trim(), by: c.context.actor, at: now, expires_at: null };
    return { scan_id: scan._id, vulnerability_id: vulnerability.id, target_id: scan.target_id, fingerprint: vulnerability.fingerprint, triage };
  }
}
