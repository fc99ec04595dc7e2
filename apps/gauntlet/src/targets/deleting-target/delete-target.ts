import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { streams, targetDecider } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

/** Deleting a target keeps its scans: their history is compliance evidence. */
export class DeleteTarget extends Command<{ account_id: string; target_id: string; context: CommandContext }>() {}

@CommandHandler(DeleteTarget)
export class DeleteTargetHandler implements ICommandHandler<DeleteTarget, void> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute({ account_id, target_id, context }: DeleteTarget): Promise<void> {
    await this.writePath.commit(targetDecider, streams.target(target_id), { type: 'DeleteTarget', account_id, now: this.clock.iso() }, context);
  }
}
