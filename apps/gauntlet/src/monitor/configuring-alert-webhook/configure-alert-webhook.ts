import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { monitorDecider, streams } from '@gauntlet/domain';
import { SecretBox } from '@gauntlet/auth';
import { newWebhookSecret } from '@gauntlet/webhooks';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { OutboundPolicy } from '../../targets/outbound-url';
import { AlertWebhookBody, CreatedAlertWebhookView } from '../../webhooks/dto';

export class ConfigureAlertWebhook extends Command<{ account_id: string; target_id: string; body: AlertWebhookBody; context: CommandContext }>() {}

/** One alert webhook per target; configuring it again replaces it (with a new secret). */
@CommandHandler(ConfigureAlertWebhook)
export class ConfigureAlertWebhookHandler implements ICommandHandler<ConfigureAlertWebhook, CreatedAlertWebhookView> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock, private readonly outbound: OutboundPolicy, private readonly secrets: SecretBox) {}

  async execute({ account_id, target_id, body, context }: ConfigureAlertWebhook): Promise<CreatedAlertWebhookView> {
    this.outbound.requireUrl(body.url);
    const secret = newWebhookSecret();
    const min_severity = body.min_severity ?? 'medium';
    await this.writePath.commit(
      monitorDecider,
      streams.monitor(target_id),
      { type: 'ConfigureAlertWebhook', target_id, account_id, url: body.url, format_type: body.format_type, min_severity, secret_encrypted: this.secrets.seal(secret), now: this.clock.iso() },
      context,
    );
    return { target_id, url: body.url, format_type: body.format_type, min_severity, enabled: true, secret };
  }
}
