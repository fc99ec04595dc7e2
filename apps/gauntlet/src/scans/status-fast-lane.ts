import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Authenticator, RouteMarkers } from '../auth/authenticator';
import { setRateLimitHeaders, type SpentRequest } from '../http/rate-limit';
import type { ScanReader } from './scan-reader';
import { statusView } from './scan-view';

/** the route as Nest registers it on fastify */
export const STATUS_ROUTE = '/api/scans/:id/status';

export interface StatusFastLaneOptions {
  /** who the caller is and whether the route admits them, as the CredentialsGuard decides it */
  authenticator: Pick<Authenticator, 'identify'>;
  /** the status route's own markers (ScansController.status), read as the guard reads them */
  route: RouteMarkers;
  /** the caller's scan as people read it, or the route's 404, as ScansController.status reads it */
  scans: Pick<ScanReader, 'ownedNamed'>;
  /** spends one request of the client's per-IP budget, as the RateLimitGuard does; absent when the limit is off */
  spend?: (ip: string) => Promise<SpentRequest>;
  /** counts the answers the lane gave */
  answered: { inc(): void };
}

/** the lane verifies no token itself: a token's first use goes on to passport-jwt in the pipeline */
const notHere = async () => null;

/**
 * GET /api/scans/{id}/status is what CI gates and dashboards poll, and Nest's request pipeline
 * (router, guards, pipes) costs several times the read itself. This plugin answers the polled
 * happy path before that pipeline, calling what the pipeline calls: the Authenticator for the
 * caller, ScanReader.ownedNamed for the scan and requestSpender / setRateLimitHeaders for the
 * per-IP budget. It answers only a bearer token this process has verified before, for a scan the
 * caller owns, within the budget; anything else (an API key, a token's first use, a bad id,
 * someone else's or no scan, a spent budget, an error) goes on to the Nest route, which answers
 * as it always does. The e2e suite compares both paths answer for answer. No Nest interceptor is
 * registered, so none is skipped here.
 *
 * Everything it needs comes in its options; it hooks itself onto the route when Nest registers
 * it, so it must be registered (awaited) before the Nest app is initialised.
 */
const lane: FastifyPluginAsync<StatusFastLaneOptions> = async (fastify, options) => {
  const { authenticator, route, scans, spend, answered } = options;

  /** true when it answered the request */
  async function answer(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    // API keys and public routes are the pipeline's: the lane's gain is on the polled bearer token
    if (!request.headers.authorization || route.public) return false;
    const caller = await authenticator.identify(request.headers, route, notHere);
    // no id check of its own: an id that finds one of the caller's scans is well formed, and any
    // other id goes on to the route's ParseUUIDPipe
    const { id } = request.params as { id: string };
    const shown = await scans.ownedNamed(caller.account_id, id);
    if (spend) {
      const budget = await spend(request.ip);
      if (budget.blocked) return false; // the pipeline answers 429 with Retry-After
      setRateLimitHeaders(reply, budget);
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
        // answered here, or on to the Nest route: a refusal (401, 403, 404) or a failure here
        // only means the pipeline answers, as it always would
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
