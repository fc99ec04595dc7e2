import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { scheduleDecider, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

/** A deleted schedule fires no more; its stream keeps every firing for the audit. */
export class DeleteSchedule extends Command<{ account_id: string; schedule_id: string; context: CommandContext }>() {}

@CommandHandler(DeleteSchedule)
export class DeleteScheduleHandler implements ICommandHandler<DeleteSchedule, void> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute({ account_id, schedule_id, context }: DeleteSchedule): Promise<void> {
    await this.writePath.commit(scheduleDecider, streams.schedule(schedule_id), { type: 'DeleteSchedule', account_id, now: this.clock.iso() }, context);
  }
}
