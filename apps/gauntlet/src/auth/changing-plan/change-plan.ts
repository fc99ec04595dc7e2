import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, Plan, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

export class ChangePlan extends Command<{ account_id: string; plan: Plan; context: CommandContext }>() {}

@CommandHandler(ChangePlan)
export class ChangePlanHandler implements ICommandHandler<ChangePlan, void> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute(c: ChangePlan): Promise<void> {
    await this.writePath.commit(accountDecider, streams.account(c.account_id), { type: 'ChangePlan', plan: c.plan }, c.context);
  }
}
