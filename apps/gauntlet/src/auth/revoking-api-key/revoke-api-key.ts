import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { accountDecider, streams } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';

export class RevokeApiKey {
  constructor(readonly account_id: string, readonly api_key_id: string, readonly context: CommandContext) {}
}

@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey, void> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute(c: RevokeApiKey): Promise<void> {
    const { position } = await this.runtime.aggregates.handle(
      accountDecider,
      streams.account(c.account_id),
      { type: 'RevokeApiKey', api_key_id: c.api_key_id, now: new Date().toISOString() },
      c.context,
    );
    // a revoked key must stop working on the very next request
    if (position !== null) await this.runtime.projector.waitFor(position);
  }
}
