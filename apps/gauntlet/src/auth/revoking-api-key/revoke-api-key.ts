import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

export class RevokeApiKey extends Command<{ account_id: string; api_key_id: string; context: CommandContext }>() {}

@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey, void> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute(c: RevokeApiKey): Promise<void> {
    // commit waits for the read models: the key works (or stops working) on the very next request
    await this.writePath.commit(
      accountDecider,
      streams.account(c.account_id),
      { type: 'RevokeApiKey', api_key_id: c.api_key_id, now: this.clock.iso() },
      c.context,
    );
  }
}
