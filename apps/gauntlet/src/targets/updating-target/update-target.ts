import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DomainError, streams, targetDecider, TargetSettings } from '@gauntlet/domain';
import type { TargetDoc } from '@gauntlet/read-models';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';
import { TargetView, UpdateTargetBody } from '../dto';
import { requireOutboundUrl } from '../outbound-url';
import { sealHeaders } from '../target-secrets';
import { targetView } from '../target-view';

export class UpdateTarget {
  constructor(readonly account_id: string, readonly target_id: string, readonly body: UpdateTargetBody, readonly context: CommandContext) {}
}

@CommandHandler(UpdateTarget)
export class UpdateTargetHandler implements ICommandHandler<UpdateTarget, TargetView> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute({ account_id, target_id, body, context }: UpdateTarget): Promise<TargetView> {
    if (body.url !== undefined) requireOutboundUrl(body.url, this.runtime.config.outboundAllowPrivate);
    const { api_key, browser, http, headers, ...plain } = body;
    const changes: Partial<TargetSettings> = { ...plain };
    if (api_key !== undefined) changes.api_key_encrypted = this.runtime.secrets.seal(api_key);
    if (headers !== undefined) {
      changes.headers_encrypted = sealHeaders(this.runtime.secrets, headers);
      changes.header_names = Object.keys(headers ?? {});
    }
    if (browser !== undefined) changes.browser = { ...browser };
    if (http !== undefined) changes.http = { ...http };
    await this.runtime.commit(
      targetDecider,
      streams.target(target_id),
      { type: 'UpdateTarget', account_id, changes, now: new Date().toISOString() },
      context,
    );
    const doc = await this.runtime.infra.documents.collection<TargetDoc>('targets').get(target_id);
    if (!doc || doc.deleted || doc.account_id !== account_id) throw new DomainError('not_found', 'Target not found.');
    return targetView(doc);
  }
}
