import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, streams } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { Clock } from '../../platform/clock';
import { CommandRunner } from '../../platform/command-runner';

export class RevokeApiKey {
  constructor(readonly account_id: string, readonly api_key_id: string, readonly context: CommandContext) {}
}

@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey, void> {
  constructor(private readonly runner: CommandRunner, private readonly clock: Clock) {}

  async execute(c: RevokeApiKey): Promise<void> {
    // commit waits for the read models: the key works (or stops working) on the very next request
    await this.runner.commit(
      accountDecider,
      streams.account(c.account_id),
      { type: 'RevokeApiKey', api_key_id: c.api_key_id, now: this.clock.iso() },
      c.context,
    );
  }
}
