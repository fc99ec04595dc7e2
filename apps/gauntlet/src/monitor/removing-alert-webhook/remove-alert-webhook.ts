import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { monitorDecider, streams } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { Clock } from '../../platform/clock';
import { CommandRunner } from '../../platform/command-runner';

export class RemoveAlertWebhook {
  constructor(readonly account_id: string, readonly target_id: string, readonly context: CommandContext) {}
}

@CommandHandler(RemoveAlertWebhook)
export class RemoveAlertWebhookHandler implements ICommandHandler<RemoveAlertWebhook, void> {
  constructor(private readonly runner: CommandRunner, private readonly clock: Clock) {}

  async execute({ account_id, target_id, context }: RemoveAlertWebhook): Promise<void> {
    await this.runner.commit(monitorDecider, streams.monitor(target_id), { type: 'RemoveAlertWebhook', account_id, now: this.clock.iso() }, context);
  }
}
