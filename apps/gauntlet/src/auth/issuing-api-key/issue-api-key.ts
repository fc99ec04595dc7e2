import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { generateApiKey } from '@gauntlet/auth';
import { accountDecider, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

export class IssueApiKey extends Command<{ account_id: string; name: string; context: CommandContext }>() {}

export interface IssuedApiKey {
  id: string;
  name: string;
  prefix: string;
  /** shown once, here; only its hash is stored */
  key: string;
  created_at: string;
}

@CommandHandler(IssueApiKey)
export class IssueApiKeyHandler implements ICommandHandler<IssueApiKey, IssuedApiKey> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute(c: IssueApiKey): Promise<IssuedApiKey> {
    const generated = generateApiKey();
    const id = randomUUID();
    const now = this.clock.iso();
    // commit waits for the read models: the key works (or stops working) on the very next request
    await this.writePath.commit(
      accountDecider,
      streams.account(c.account_id),
      { type: 'IssueApiKey', api_key_id: id, name: c.name, prefix: generated.prefix, key_hash: generated.hash, now },
      c.context,
    );
    return { id, name: c.name, prefix: generated.prefix, key: generated.key, created_at: now };
  }
}
