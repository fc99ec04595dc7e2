import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { Principal } from '../auth/principal';
import { ProblemException } from '../http/problem';
import { RUNTIME, Runtime } from '../runtime';

const HOUR_MS = 3_600_000;

/**
 * 30 report downloads per hour per account (REPORT_DOWNLOADS_PER_HOUR). It runs after
 * authentication (a route guard), so it can count by account rather than by IP, and it keeps
 * its counters in the throttler's storage beside the per-IP limit.
 */
@Injectable()
export class ReportDownloadLimit implements CanActivate {
  constructor(@Inject(ThrottlerStorage) private readonly storage: ThrottlerStorage, @Inject(RUNTIME) private readonly runtime: Runtime) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const principal: Principal = context.switchToHttp().getRequest().principal;
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const limit = this.runtime.config.reportDownloadsPerHour;
    const { totalHits, timeToExpire } = await this.storage.increment(`report-downloads:${principal.account_id}`, HOUR_MS, limit, 0, 'reports');
    reply.header('X-RateLimit-Limit-Reports', String(limit));
    reply.header('X-RateLimit-Remaining-Reports', String(Math.max(0, limit - totalHits)));
    reply.header('X-RateLimit-Reset-Reports', String(timeToExpire));
    if (totalHits > limit) {
      throw new ProblemException(429, `Your account may download ${limit} reports per hour; try again in ${Math.ceil(timeToExpire / 60)} minutes.`, {
        slug: 'report-download-limit', title: 'Report download limit reached', headers: { 'Retry-After': String(timeToExpire) },
      });
    }
    return true;
  }
}
