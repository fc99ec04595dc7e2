import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, Plan, streams } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { Clock } from '../../platform/clock';
import { CommandRunner } from '../../platform/command-runner';

export class ChangePlan {
  constructor(readonly account_id: string, readonly plan: Plan, readonly context: CommandContext) {}
}

@CommandHandler(ChangePlan)
export class ChangePlanHandler implements ICommandHandler<ChangePlan, void> {
  constructor(private readonly runner: CommandRunner, private readonly clock: Clock) {}

  async execute(c: ChangePlan): Promise<void> {
    await this.runner.commit(accountDecider, streams.account(c.account_id), { type: 'ChangePlan', plan: c.plan }, c.context);
  }
}
