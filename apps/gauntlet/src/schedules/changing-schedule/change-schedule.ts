import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { scheduleDecider, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { ScheduleView, UpdateScheduleBody } from '../dto';
import { ScheduleReader } from '../schedule-reader';
import { scheduleView } from '../schedule-view';

/** A new time table, profile or catch-up policy, and pausing or resuming: each its own event. */
export class ChangeSchedule extends Command<{ account_id: string; schedule_id: string; body: UpdateScheduleBody; context: CommandContext }>() {}

@CommandHandler(ChangeSchedule)
export class ChangeScheduleHandler implements ICommandHandler<ChangeSchedule, ScheduleView> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock, private readonly schedules: ScheduleReader) {}

  async execute({ account_id, schedule_id, body, context }: ChangeSchedule): Promise<ScheduleView> {
    const { paused, ...changes } = body;
    await this.writePath.commit(scheduleDecider, streams.schedule(schedule_id), { type: 'ChangeSchedule', account_id, changes, paused, now: this.clock.iso() }, context);
    return scheduleView(await this.schedules.owned(account_id, schedule_id));
  }
}
