import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { streams, webhookDecider } from '@gauntlet/domain';
import { newWebhookSecret } from '@gauntlet/webhooks';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';
import { RotatedSecretView } from '../dto';

/** The new secret signs every delivery from now on, retries of older deliveries included. */
export class RotateWebhookSecret {
  constructor(readonly account_id: string, readonly webhook_id: string, readonly context: CommandContext) {}
}

@CommandHandler(RotateWebhookSecret)
export class RotateWebhookSecretHandler implements ICommandHandler<RotateWebhookSecret, RotatedSecretView> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute({ account_id, webhook_id, context }: RotateWebhookSecret): Promise<RotatedSecretView> {
    const secret = newWebhookSecret();
    await this.runtime.commit(
      webhookDecider,
      streams.webhook(webhook_id),
      { type: 'RotateWebhookSecret', account_id, secret_encrypted: this.runtime.secrets.seal(secret), now: new Date().toISOString() },
      context,
    );
    return { id: webhook_id, secret };
  }
}
