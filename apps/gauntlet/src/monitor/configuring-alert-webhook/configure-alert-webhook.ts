import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { monitorDecider, streams } from '@gauntlet/domain';
import { newWebhookSecret } from '@gauntlet/webhooks';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';
import { requireOutboundUrl } from '../../targets/outbound-url';
import { AlertWebhookBody, CreatedAlertWebhookView } from '../../webhooks/dto';

export class ConfigureAlertWebhook {
  constructor(readonly account_id: string, readonly target_id: string, readonly body: AlertWebhookBody, readonly context: CommandContext) {}
}

/** One alert webhook per target; configuring it again replaces it (with a new secret). */
@CommandHandler(ConfigureAlertWebhook)
export class ConfigureAlertWebhookHandler implements ICommandHandler<ConfigureAlertWebhook, CreatedAlertWebhookView> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute({ account_id, target_id, body, context }: ConfigureAlertWebhook): Promise<CreatedAlertWebhookView> {
    requireOutboundUrl(body.url, this.runtime.config.outboundAllowPrivate);
    const secret = newWebhookSecret();
    const min_severity = body.min_severity ?? 'medium';
    await this.runtime.commit(
      monitorDecider,
      streams.monitor(target_id),
      { type: 'ConfigureAlertWebhook', target_id, account_id, url: body.url, format_type: body.format_type, min_severity, secret_encrypted: this.runtime.secrets.seal(secret), now: new Date().toISOString() },
      context,
    );
    return { target_id, url: body.url, format_type: body.format_type, min_severity, enabled: true, secret };
  }
}
