import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { monitorDecider, streams } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';

export class RemoveAlertWebhook {
  constructor(readonly account_id: string, readonly target_id: string, readonly context: CommandContext) {}
}

@CommandHandler(RemoveAlertWebhook)
export class RemoveAlertWebhookHandler implements ICommandHandler<RemoveAlertWebhook, void> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute({ account_id, target_id, context }: RemoveAlertWebhook): Promise<void> {
    await this.runtime.commit(monitorDecider, streams.monitor(target_id), { type: 'RemoveAlertWebhook', account_id, now: new Date().toISOString() }, context);
  }
}
