import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { streams, webhookDecider } from '@gauntlet/domain';
import { SecretBox } from '@gauntlet/auth';
import { newWebhookSecret } from '@gauntlet/webhooks';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { RotatedSecretView } from '../dto';

/** The new secret signs every delivery from now on, retries of older deliveries included. */
export class RotateWebhookSecret extends Command<{ account_id: string; webhook_id: string; context: CommandContext }>() {}

@CommandHandler(RotateWebhookSecret)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecret, RotatedSecretView> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock, private readonly secrets: SecretBox) {}

  async execute({ account_id, webhook_id, context }: RotateWebhookSecret): Promise<RotatedSecretView> {
    const secret = newWebhookSecret();
    await this.writePath.commit(
      webhookDecider,
      streams.webhook(webhook_id),
      { type: 'RotateWebhookSecret', account_id, secret_encrypted: this.secrets.seal(secret), now: this.clock.iso() },
      context,
    );
    return { id: webhook_id, secret };
  }
}
