import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { streams, webhookDecider } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

export class DeleteWebhook extends Command<{ account_id: string; webhook_id: string; context: CommandContext }>() {}

@CommandHandler(DeleteWebhook)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhook, void> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute({ account_id, webhook_id, context }: DeleteWebhook): Promise<void> {
    await this.writePath.commit(webhookDecider, streams.webhook(webhook_id), { type: 'DeleteWebhook', account_id, now: this.clock.iso() }, context);
  }
}
