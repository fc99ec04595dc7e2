import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { streams, webhookDecider } from '@gauntlet/domain';
import { SecretBox } from '@gauntlet/auth';
import { newWebhookSecret } from '@gauntlet/webhooks';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { OutboundPolicy } from '../../targets/outbound-url';
import { CreatedWebhookView, RegisterWebhookBody } from '../dto';

export class RegisterWebhook extends Command<{ account_id: string; body: RegisterWebhookBody; context: CommandContext }>() {}

@CommandHandler(RegisterWebhook)
export class RegisterWebhookHandler implements ICommandHandler<RegisterWebhook, CreatedWebhookView> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock, private readonly outbound: OutboundPolicy, private readonly secrets: SecretBox) {}

  async execute({ account_id, body, context }: RegisterWebhook): Promise<CreatedWebhookView> {
    this.outbound.requireUrl(body.url);
    const webhook_id = randomUUID();
    const secret = newWebhookSecret();
    const now = this.clock.iso();
    const { events } = await this.writePath.commit(
      webhookDecider,
      streams.webhook(webhook_id),
      { type: 'RegisterWebhook', webhook_id, account_id, url: body.url, event_types: body.event_types, format_type: body.format_type, secret_encrypted: this.secrets.seal(secret), now },
      context,
    );
    const registered = events[0].data as { event_types: string[] };
    return { id: webhook_id, url: body.url, event_types: registered.event_types, format_type: body.format_type, enabled: true, disabled_reason: null, created_at: now, secret };
  }
}
