import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { budgetOf, Plan, scheduleDecider, ScheduleTiming, streams, targetDecider } from '@gauntlet/domain';
import { Inject } from '@nestjs/common';
import type { Config } from '../../config/config';
import { CONFIG } from '../../platform/tokens';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { CreateScheduleBody, ScheduleView } from '../dto';
import { ScheduleReader } from '../schedule-reader';
import { scheduleView } from '../schedule-view';

export class CreateSchedule extends Command<{ account_id: string; plan: Plan; body: CreateScheduleBody; context: CommandContext }>() {}

@CommandHandler(CreateSchedule)
export class CreateScheduleHandler implements ICommandHandler<CreateSchedule, ScheduleView> {
  constructor(
    private readonly writePath: WritePath,
    private readonly clock: Clock,
    private readonly schedules: ScheduleReader,
    @Inject(CONFIG) private readonly config: Pick<Config, 'scheduleLimits'>,
  ) {}

  async execute({ account_id, plan, body, context }: CreateSchedule): Promise<ScheduleView> {
    // the named target as its own stream has it: only the account's live target can be scheduled
    const target = body.target_id ? await this.writePath.state(targetDecider, streams.target(body.target_id)) : null;
    const schedule_id = randomUUID();
    // the plan's cap, counted on the read model: two creations racing may both see room for one
    const room = { plan, allowed: this.config.scheduleLimits[plan], live: await this.schedules.live(account_id) };
    // a body with cron (today's requests) is a cron schedule; the decider refuses a time table on a deploy schedule
    const budget = budgetOf(body);
    const timing = { trigger: body.trigger ?? 'cron', cron: body.cron ?? null, timezone: body.timezone ?? null, catch_up: body.catch_up ?? null, profile: body.profile ?? 'standard', ...(budget && { budget }) } as ScheduleTiming;
    await this.writePath.commit(
      scheduleDecider,
      streams.schedule(schedule_id),
      {
        type: 'CreateSchedule', schedule_id, account_id, target_id: body.target_id ?? null, tag: body.tag ?? null, ...timing, paused: body.paused ?? false, now: this.clock.iso(),
        target: target?.id ? { account_id: target.account_id, deleted: target.deleted } : null,
        room,
      },
      context,
    );
    return scheduleView(await this.schedules.owned(account_id, schedule_id));
  }
}
