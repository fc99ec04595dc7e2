import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, Plan, streams } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';

export class ChangePlan {
  constructor(readonly account_id: string, readonly plan: Plan, readonly context: CommandContext) {}
}

@CommandHandler(ChangePlan)
export class ChangePlanHandler implements ICommandHandler<ChangePlan, void> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute(c: ChangePlan): Promise<void> {
    await this.runtime.commit(accountDecider, streams.account(c.account_id), { type: 'ChangePlan', plan: c.plan }, c.context);
  }
}
