import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, streams, targetDecider, TargetSettings, toolsOutboundUrls } from '@gauntlet/domain';
import { SecretBox } from '@gauntlet/auth';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { TargetView, UpdateTargetBody } from '../dto';
import { OutboundPolicy } from '../outbound-url';
import { TargetReader } from '../target-reader';
import { headerNames, sealHeaders, sealSensitive, sealTools } from '../target-secrets';
import { targetView } from '../target-view';

export class UpdateTarget extends Command<{ account_id: string; target_id: string; body: UpdateTargetBody; context: CommandContext }>() {}

@CommandHandler(UpdateTarget)
export class UpdateTargetHandler implements ICommandHandler<UpdateTarget, TargetView> {
  constructor(
    private readonly writePath: WritePath,
    private readonly clock: Clock,
    private readonly outbound: OutboundPolicy,
    private readonly secrets: SecretBox,
    private readonly targets: TargetReader,
  ) {}

  async execute({ account_id, target_id, body, context }: UpdateTarget): Promise<TargetView> {
    if (body.url !== undefined) this.outbound.requireUrl(body.url);
    const { api_key, browser, http, headers, sensitive, tools, ...plain } = body;
    for (const { url, field } of toolsOutboundUrls(tools)) this.outbound.requireUrl(url, field);
    const changes: Partial<TargetSettings> = { ...plain };
    if (tools !== undefined) changes.tools = sealTools(this.secrets, tools);
    if (api_key !== undefined) changes.api_key_encrypted = this.secrets.seal(api_key);
    if (headers !== undefined) {
      changes.headers_encrypted = sealHeaders(this.secrets, headers);
      changes.header_names = headerNames(headers);
    }
    if (sensitive !== undefined) Object.assign(changes, sealSensitive(this.secrets, account_id, sensitive));
    if (browser !== undefined) changes.browser = { ...browser };
    if (http !== undefined) changes.http = { ...http };
    await this.writePath.commit(
      targetDecider,
      streams.target(target_id),
      { type: 'UpdateTarget', account_id, changes, now: this.clock.iso() },
      context,
    );
    const doc = await this.targets.get(target_id);
    if (!doc || doc.deleted || doc.account_id !== account_id) throw new DomainError('not_found', 'Target not found.');
    return targetView(doc);
  }
}
