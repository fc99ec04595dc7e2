import { Inject, Injectable } from '@nestjs/common';
import { SecretBox } from '@gauntlet/auth';
import type { Logger } from 'pino';
import type { TargetDoc } from '@gauntlet/read-models';
import { checkTarget } from '@gauntlet/scanner';
import type { Config } from '../../config/config';
import { Clock } from '../../platform/clock';
import { CONFIG, LOGGER } from '../../platform/tokens';
import type { TargetCheckView } from '../dto';
import { openHeaders } from '../target-secrets';
import { CheckGate, CheckSlot } from './check-gate';

/**
 * The connection check (`POST /api/targets/{id}/check`, and `check: true` on create): one
 * harmless message through the same driver and outbound guard a scan uses. It changes nothing:
 * a check is a question asked now, answered now, like a webhook's test ping.
 */
@Injectable()
export class TargetChecker {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly secrets: SecretBox,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly log: Logger,
    private readonly gate: CheckGate,
  ) {}

  /** claims one of the account's checks (429 beyond its limits); `check` releases it */
  admit(accountId: string): Promise<CheckSlot> {
    return this.gate.admit(accountId);
  }

  async check(doc: TargetDoc, admitted?: CheckSlot): Promise<TargetCheckView> {
    const slot = admitted ?? (await this.admit(doc.account_id));
    try {
      return await this.run(doc);
    } finally {
      await slot.release();
    }
  }

  private async run(doc: TargetDoc): Promise<TargetCheckView> {
    const { config, secrets } = this;
    const result = await checkTarget(
      {
        scan_mode: doc.scan_mode, api_format: doc.api_format, url: doc.url, model: doc.model, http: doc.http, browser: doc.browser,
        max_requests_per_second: doc.max_requests_per_second, stream: doc.stream ?? false,
        // opened for this one request only
        api_key: doc.api_key_encrypted ? secrets.open(doc.api_key_encrypted) : null,
        headers: openHeaders(secrets, doc.headers_encrypted),
      },
      { allowPrivate: config.outboundAllowPrivate, chromiumPath: config.chromiumPath, deadlineMs: config.targetCheckDeadlineMs, operationTimeoutMs: config.browserOperationTimeoutMs, navigationTimeoutMs: config.browserNavigationTimeoutMs },
    );
    this.log.info({ target_id: doc._id, ok: result.ok, status: result.status, latency_ms: result.latency_ms }, 'target checked');
    return {
      ok: result.ok, endpoint: result.endpoint, status: result.status, latency_ms: result.latency_ms, diagnosis: result.diagnosis, hint: result.hint,
      answer: result.answer, screenshot: result.screenshot ? { content_type: 'image/png', data: result.screenshot.toString('base64') } : null,
      checked_at: this.clock.iso(),
    };
  }
}
