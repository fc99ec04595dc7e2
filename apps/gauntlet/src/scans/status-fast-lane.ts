import type { ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ScanDoc } from '@gauntlet/read-models';
import { AccountReader } from '../auth/account-reader';
import { rememberedAccount } from '../auth/credentials.guard';
import { bearerToken } from '../auth/principal';
import { RATE_LIMIT_THROTTLER, RATE_LIMIT_WINDOW_MS, rateLimitKey, rateLimitTracker } from '../http/rate-limit';
import type { Runtime } from '../runtime';
import { statusView } from './scan-view';

/** the route as Nest registers it on fastify */
export const STATUS_ROUTE = '/api/scans/:id/status';

/**
 * GET /api/scans/{id}/status is what CI gates and dashboards poll, and Nest's request pipeline
 * (router, guards, pipes) costs several times the read itself. This answers the polled happy
 * path before that pipeline, and only it: a bearer token that passport-jwt already verified in
 * this process (the guard remembers it until it expires), the caller's account, a scan the
 * caller owns, and the same per-IP budget the ThrottlerGuard spends, with the same X-RateLimit
 * headers. Anything else (an API key, a token's first use, a bad id, someone
 * else's or no scan, a spent budget, an error) resolves false and the Nest route answers as it
 * always does. The e2e suite compares both paths answer for answer. It runs before Nest, so no
 * Nest interceptor runs for what it answers (none is registered): one added later with a side
 * effect must be mirrored here.
 */
export function statusFastLane(runtime: Runtime, throttler: ThrottlerStorage) {
  const scans = () => runtime.infra.documents.collection<ScanDoc>('scans');
  const limit = runtime.config.rateLimitPerMinute;
  const accounts = new AccountReader(runtime.infra.documents);

  /** true when it answered the request */
  return async function answer(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const account = await rememberedAccount(runtime.verifiedTokens, accounts, bearerToken(request.headers.authorization));
    if (!account) return false;
    // no id check of its own: an id that finds one of the caller's scans is well formed, and any
    // other id goes on to the route's ParseUUIDPipe
    const { id } = request.params as { id: string };
    const scan = await scans().get(id);
    if (!scan || scan.account_id !== account._id) return false;
    if (limit > 0) {
      const spent = await throttler.increment(rateLimitKey(rateLimitTracker(request.ip)), RATE_LIMIT_WINDOW_MS, limit, RATE_LIMIT_WINDOW_MS, RATE_LIMIT_THROTTLER);
      if (spent.isBlocked) return false; // the pipeline answers 429 with Retry-After
      reply.header('X-RateLimit-Limit', limit).header('X-RateLimit-Remaining', Math.max(0, limit - spent.totalHits)).header('X-RateLimit-Reset', spent.timeToExpire);
    }
    runtime.metrics.statusFastLane.inc();
    reply.send(statusView(scan));
    return true;
  };
}
