import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { deployCoverage, deployedTargets, normalizeTag, Plan, scheduleDecider, streams, targetDecider, type DeployFacts } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { FiringScans, scheduledScanId } from '../../schedules/firing-scans';
import { ScheduleReader } from '../../schedules/schedule-reader';
import { TargetReader } from '../../targets/target-reader';

/** A pipeline says it deployed a target (or every target of a tag): the deploy schedules covering them fire. */
export class ReportDeploy extends Command<{
  account_id: string;
  plan: Plan;
  report: { target_id: string | null; tag: string | null; deploy_id: string | null; environment: string | null; version: string | null };
  context: CommandContext;
}>() {}

export interface DeployAnswer {
  deploy_id: string;
  scans: { schedule_id: string; target_id: string; scan_id: string }[];
  skipped: { schedule_id: string; target_id: string; reason: string }[];
  not_started: { schedule_id: string; target_id: string; scan_id: string; reason: string }[];
}

/**
 * Each deploy schedule covering a deployed target fires once per deploy: the firing is decided on
 * the schedule's stream at its expected revision (a retried report, or the same report to two api
 * processes, finds the deploy taken and fires nothing more), then its scans are asked for through
 * the one scan write path with ids derived from the firing. A retry answers the firing's scans.
 */
@CommandHandler(ReportDeploy)
export class ReportDeployHandler implements ICommandHandler<ReportDeploy, DeployAnswer> {
  constructor(
    private readonly writePath: WritePath,
    private readonly clock: Clock,
    private readonly targets: TargetReader,
    private readonly schedules: ScheduleReader,
    private readonly scans: FiringScans,
  ) {}

  async execute({ account_id, plan, report, context }: ReportDeploy): Promise<DeployAnswer> {
    const deploy: DeployFacts = { deploy_id: report.deploy_id ?? randomUUID(), environment: report.environment, version: report.version };
    // the named target as its own stream has it; a tag's targets as the read model lists them
    const target = report.target_id ? await this.writePath.state(targetDecider, streams.target(report.target_id)) : null;
    const tag = report.tag === null ? null : normalizeTag(report.tag);
    const deployed = deployedTargets(
      { account_id, target_id: report.target_id, tag: report.tag },
      {
        target: target?.id ? { account_id: target.account_id, deleted: target.deleted, tags: target.settings?.tags ?? [] } : null,
        tagged: tag ? (await this.targets.tagged(account_id, tag)).map((t) => ({ id: t._id, tags: t.tags ?? [] })) : [],
      },
    );
    const schedules = await this.schedules.onDeploy(account_id);
    const answer: DeployAnswer = { deploy_id: deploy.deploy_id, scans: [], skipped: [], not_started: [] };
    for (const { schedule_id, target_ids } of deployCoverage(schedules.map((s) => ({ id: s._id, target_id: s.target_id, tag: s.tag, created_at: s.created_at })), deployed)) {
      await this.fire(account_id, schedule_id, target_ids, deploy, plan, context, answer);
    }
    return answer;
  }

  private async fire(account_id: string, schedule_id: string, target_ids: string[], deploy: DeployFacts, plan: Plan, context: CommandContext, answer: DeployAnswer): Promise<void> {
    const firingName = `deploy:${deploy.deploy_id}`;
    const targets = await Promise.all(
      target_ids.map(async (target_id) => ({ target_id, scan_id: scheduledScanId(schedule_id, firingName, target_id), busy: await this.scans.previousScanRunning(account_id, target_id) })),
    );
    const { state } = await this.writePath.decide(scheduleDecider, streams.schedule(schedule_id), { type: 'FireOnDeploy', deploy, targets, now: this.clock.iso() }, context);
    // no firing: paused or deleted since the read model listed it
    const firing = state.deploys[deploy.deploy_id];
    if (!firing) return;
    answer.skipped.push(...firing.skipped.map((s) => ({ schedule_id, ...s })));
    for (const planned of firing.scans) {
      const { refused } = await this.scans.request(state, plan, firing.due_at, planned, context);
      if (refused) answer.not_started.push({ schedule_id, ...planned, reason: refused });
      else answer.scans.push({ schedule_id, ...planned });
    }
  }
}
