import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ScanDoc } from '@gauntlet/read-models';
import { bearerToken } from '../auth/principal';
import type { VerifiedSessions } from '../auth/verified-sessions';
import type { SpentRequest } from '../http/rate-limit';
import { NamedScanDoc, statusView } from './scan-view';

/** the route as Nest registers it on fastify */
export const STATUS_ROUTE = '/api/scans/:id/status';

export interface StatusFastLaneOptions {
  sessions: Pick<VerifiedSessions, 'account'>;
  scans: { get(id: string): Promise<ScanDoc | null> };
  /** the scan as people read it (ScanReader.named): reads the accounts and keys only for a cancelled scan */
  name: (scan: ScanDoc) => Promise<NamedScanDoc>;
  /**
   * spends one request of the client's per-IP budget, the one the ThrottlerGuard spends, and says
   * what is left; absent when the limit is off
   */
  spend?: (ip: string) => Promise<SpentRequest>;
  /** counts the answers the lane gave */
  answered: { inc(): void };
}

/**
 * GET /api/scans/{id}/status is what CI gates and dashboards poll, and Nest's request pipeline
 * (router, guards, pipes) costs several times the read itself. This plugin answers the polled
 * happy path before that pipeline, and only it: a bearer token that passport-jwt already verified
 * in this process (VerifiedSessions), the caller's account, a scan the caller owns, and the same
 * per-IP budget, with the same X-RateLimit headers. Anything else (an API key, a token's first
 * use, a bad id, someone else's or no scan, a spent budget, an error) goes on to the Nest route,
 * which answers as it always does. The e2e suite compares both paths answer for answer. It runs
 * before Nest, so no Nest interceptor runs for what it answers (none is registered): one added
 * later with a side effect must be mirrored here.
 *
 * Everything it needs comes in its options; it hooks itself onto the route when Nest registers
 * it, so it must be registered (awaited) before the Nest app is initialised.
 */
const lane: FastifyPluginAsync<StatusFastLaneOptions> = async (fastify, options) => {
  const { sessions, scans, name, spend, answered } = options;

  /** true when it answered the request */
  async function answer(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const account = await sessions.account(bearerToken(request.headers.authorization));
    if (!account) return false;
    // no id check of its own: an id that finds one of the caller's scans is well formed, and any
    // other id goes on to the route's ParseUUIDPipe
    const { id } = request.params as { id: string };
    const scan = await scans.get(id);
    if (!scan || scan.account_id !== account._id) return false;
    const shown = await name(scan);
    if (spend) {
      const budget = await spend(request.ip);
      if (budget.blocked) return false; // the pipeline answers 429 with Retry-After
      reply.header('X-RateLimit-Limit', budget.limit).header('X-RateLimit-Remaining', budget.remaining).header('X-RateLimit-Reset', budget.resetSeconds);
    }
    answered.inc();
    reply.send(statusView(shown));
    return true;
  }

  fastify.addHook('onRoute', (route) => {
    if (route.url !== STATUS_ROUTE || route.method !== 'GET') return;
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [
      ...own,
      (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
        // answered here, or on to the Nest route; a failure here only means the pipeline answers
        answer(request, reply).then(
          (answered) => answered || done(),
          () => done(),
        );
      },
    ];
  });
};

/** not encapsulated: its onRoute hook must see the routes Nest adds to the root instance */
export const statusFastLane = fp(lane, { name: 'gauntlet-status-fast-lane', fastify: '5.x' });
