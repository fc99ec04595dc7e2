import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { streams, webhookDecider } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';

export class DeleteWebhook {
  constructor(readonly account_id: string, readonly webhook_id: string, readonly context: CommandContext) {}
}

@CommandHandler(DeleteWebhook)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhook, void> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute({ account_id, webhook_id, context }: DeleteWebhook): Promise<void> {
    await this.runtime.commit(webhookDecider, streams.webhook(webhook_id), { type: 'DeleteWebhook', account_id, now: new Date().toISOString() }, context);
  }
}
