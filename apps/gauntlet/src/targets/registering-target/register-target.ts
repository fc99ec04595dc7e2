import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { streams, targetDecider, TargetSettings, toolsOutboundUrls } from '@gauntlet/domain';
import { SecretBox } from '@gauntlet/auth';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { RegisteredTargetView, RegisterTargetBody } from '../dto';
import { OutboundPolicy } from '../outbound-url';
import { TargetReader } from '../target-reader';
import { headerNames, sealHeaders, sealSensitive, sealTools } from '../target-secrets';
import { targetView } from '../target-view';
import { CheckSlot } from '../checking-target/check-gate';
import { TargetChecker } from '../checking-target/target-checker';

export class RegisterTarget extends Command<{ account_id: string; body: RegisterTargetBody; context: CommandContext }>() {}

@CommandHandler(RegisterTarget)
export class RegisterTargetHandler implements ICommandHandler<RegisterTarget, RegisteredTargetView> {
  constructor(
    private readonly writePath: WritePath,
    private readonly clock: Clock,
    private readonly outbound: OutboundPolicy,
    private readonly secrets: SecretBox,
    private readonly targets: TargetReader,
    private readonly checker: TargetChecker,
  ) {}

  async execute({ account_id, body, context }: RegisterTarget): Promise<RegisteredTargetView> {
    this.outbound.requireUrl(body.url);
    for (const { url, field } of toolsOutboundUrls(body.tools)) this.outbound.requireUrl(url, field);
    // admitted before anything is recorded: a 429 then registers nothing
    const slot = body.check ? await this.checker.admit(account_id) : null;
    try {
      return await this.register(account_id, body, context, slot);
    } finally {
      await slot?.release();
    }
  }

  private async register(account_id: string, body: RegisterTargetBody, context: CommandContext, slot: CheckSlot | null): Promise<RegisteredTargetView> {
    const settings: TargetSettings = {
      name: body.name,
      url: body.url,
      scan_mode: body.scan_mode,
      api_format: body.api_format ?? null,
      // sealed before it reaches the log: the plain key exists only in this request and in a scanner's memory
      api_key_encrypted: body.api_key ? this.secrets.seal(body.api_key) : null,
      model: body.model ?? null,
      canaries: body.canaries ?? [],
      browser: body.browser ? { ...body.browser } : null,
      http: body.http ? { ...body.http } : null,
      max_requests_per_second: body.max_requests_per_second ?? null,
      // sealed like the key; only the names stay readable
      headers_encrypted: sealHeaders(this.secrets, body.headers),
      header_names: headerNames(body.headers),
      stream: body.stream ?? false,
      tags: body.tags ?? [],
      regression_threshold: body.regression_threshold ?? null,
      // sealed like the key; labels and fingerprints stay readable
      ...sealSensitive(this.secrets, account_id, body.sensitive),
      ...(body.tools !== undefined && { tools: sealTools(this.secrets, body.tools) }),
    };
    const target_id = randomUUID();
    await this.writePath.commit(
      targetDecider,
      streams.target(target_id),
      { type: 'RegisterTarget', target_id, account_id, settings, now: this.clock.iso() },
      context,
    );
    const doc = (await this.targets.get(target_id))!;
    // check: true answers with the connection check too; the target is registered whatever it says
    return slot ? { ...targetView(doc), check: await this.checker.check(doc, slot) } : targetView(doc);
  }
}
