import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { monitorDecider, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

export class RemoveAlertWebhook extends Command<{ account_id: string; target_id: string; context: CommandContext }>() {}

@CommandHandler(RemoveAlertWebhook)
export class RemoveAlertWebhookHandler implements ICommandHandler<RemoveAlertWebhook, void> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute({ account_id, target_id, context }: RemoveAlertWebhook): Promise<void> {
    await this.writePath.commit(monitorDecider, streams.monitor(target_id), { type: 'RemoveAlertWebhook', account_id, now: this.clock.iso() }, context);
  }
}
