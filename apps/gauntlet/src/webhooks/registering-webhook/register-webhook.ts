import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { streams, webhookDecider } from '@gauntlet/domain';
import { newWebhookSecret } from '@gauntlet/webhooks';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';
import { requireOutboundUrl } from '../../targets/outbound-url';
import { CreatedWebhookView, RegisterWebhookBody } from '../dto';

export class RegisterWebhook {
  constructor(readonly account_id: string, readonly body: RegisterWebhookBody, readonly context: CommandContext) {}
}

@CommandHandler(RegisterWebhook)
export class RegisterWebhookHandler implements ICommandHandler<RegisterWebhook, CreatedWebhookView> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute({ account_id, body, context }: RegisterWebhook): Promise<CreatedWebhookView> {
    requireOutboundUrl(body.url, this.runtime.config.outboundAllowPrivate);
    const webhook_id = randomUUID();
    const secret = newWebhookSecret();
    const now = new Date().toISOString();
    const { events } = await this.runtime.commit(
      webhookDecider,
      streams.webhook(webhook_id),
      { type: 'RegisterWebhook', webhook_id, account_id, url: body.url, event_types: body.event_types, format_type: body.format_type, secret_encrypted: this.runtime.secrets.seal(secret), now },
      context,
    );
    const registered = events[0].data as { event_types: string[] };
    return { id: webhook_id, url: body.url, event_types: registered.event_types, format_type: body.format_type, enabled: true, disabled_reason: null, created_at: now, secret };
  }
}
