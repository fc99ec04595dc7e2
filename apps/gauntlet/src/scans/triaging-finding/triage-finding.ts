import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { effectiveTriage, FindingTriage, findingTriage, scanDecider, streams, triageDecider, TriageState } from '@gauntlet/domain';
import { ProblemException } from '../../http/problem';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

/** A person marks a finding open, a false positive, an accepted risk or fixed; it applies to its fingerprint on the target. */
export class TriageFinding extends Command<{
  account_id: string;
  scan_id: string;
  vulnerability_id: string;
  decision: { state: TriageState; reason: string; expires_at: string | null };
  context: CommandContext;
}>() {}

export interface TriagedFinding {
  scan_id: string;
  vulnerability_id: string;
  target_id: string;
  fingerprint: string;
  triage: FindingTriage;
}

@CommandHandler(TriageFinding)
export class TriageFindingHandler implements ICommandHandler<TriageFinding, TriagedFinding> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute(c: TriageFinding): Promise<TriagedFinding> {
    // the finding's fingerprint and the scan's target are facts of the scan's own stream (a read
    // model may not have caught up with a finding just recorded); the decision is the triage decider's
    const scan = await this.writePath.state(scanDecider, streams.scan(c.scan_id));
    if (!scan.id || scan.account_id !== c.account_id) throw new ProblemException(404, 'Scan not found.');
    const fingerprint = Object.hasOwn(scan.findings, c.vulnerability_id) ? scan.findings[c.vulnerability_id] : null;
    if (fingerprint === null) throw new ProblemException(404, 'Vulnerability not found in this scan.');
    const target_id = scan.target_id!;
    const now = this.clock.iso();
    const { state } = await this.writePath.commit(
      triageDecider,
      streams.target(target_id),
      {
        type: 'TriageFinding', account_id: c.account_id, fingerprint, state: c.decision.state, reason: c.decision.reason,
        by: c.context.actor, expires_at: c.decision.expires_at, scan_id: c.scan_id, vulnerability_id: c.vulnerability_id, now,
      },
      c.context,
    );
    const decision = state.decisions[fingerprint];
    // reopening a finding nobody triaged records nothing: it is open, decided by no one
    const triage: FindingTriage = decision
      ? findingTriage(effectiveTriage(decision, scan.requested_at!, now)!)
      : { state: 'open', reason: c.decision.reason.trim(), by: c.context.actor, at: now, expires_at: null };
    return { scan_id: c.scan_id, vulnerability_id: c.vulnerability_id, target_id, fingerprint, triage };
  }
}
