import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ProblemException, sendProblem } from './problem';

/** a route pattern (`/api/scans/:id/status`, `/app/*`) as a test of a request path */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * A path the api serves, asked with a method it does not serve there, answers 405 with Allow
 * (RFC 9110 section 15.5.6) instead of 404, before any body is read. Routes are learnt as they
 * are registered, so every route, added later or not, is covered.
 */
export function answerMethodNotAllowed(fastify: FastifyInstance, log: Logger): void {
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  fastify.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
    routes.push({ pattern: patternOf(route.url), methods });
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const path = request.url.split('?')[0];
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods))];
    if (allowed.length === 0) return done();
    reply.header('Allow', allowed.sort().join(', '));
    sendProblem(reply, request, new ProblemException(405, `${request.method} is not served here; use ${allowed.sort().join(', ')}.`), log);
  });
}
