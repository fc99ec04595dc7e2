import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CALLBACK_MOUNT, CallbackListener, readBoundedBody } from '@gauntlet/scanner';

/**
 * `GET|POST|HEAD /oob/<token>[/...]`: the callback listener behind the service's HTTP server, outside
 * /api. No credentials, not under the api's per-IP limit (the listener limits per token and per
 * source itself), any body read up to the listener's bound and dropped past it, a slow sender cut
 * off at the deadline. Glue only: what a request proves and answers is the listener's.
 */
export async function callbackRoute(fastify: FastifyInstance, options: { listener: CallbackListener }): Promise<void> {
  // whatever a request says its body is, it is bytes the listener keeps the start of
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request: FastifyRequest, payload, done) => {
    readBoundedBody(payload).then((body) => done(null, body), done);
  });
  fastify.route({
    method: ['GET', 'POST', 'HEAD'],
    url: `${CALLBACK_MOUNT}/*`,
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const answer = await options.listener.answer({
        method: request.method, url: request.url.slice(CALLBACK_MOUNT.length), source: request.ip, headers: request.headers, body: Buffer.isBuffer(request.body) ? request.body : null,
      });
      // a body not read to its end is dropped with the connection
      if (!request.raw.complete) reply.header('connection', 'close');
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    },
  });
}

/**
 * Requests whose Host is a name under CALLBACK_DOMAIN (`<token labels>.<domain>`, any path): the
 * listener's, before any route of the service sees them (an onRequest hook on the root, since the
 * path can be anything). Any body is read up to the listener's bound here. Other hosts pass on.
 */
export function callbackHostHook(listener: CallbackListener) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> => {
    const host = request.headers.host;
    if (!listener.hearsHost(host)) return;
    const body = request.method === 'POST' ? await readBoundedBody(request.raw) : null;
    const answer = await listener.answer({ method: request.method, url: request.url, host, source: request.ip, headers: request.headers, body });
    if (!request.raw.complete) reply.header('connection', 'close');
    // answered here: returning the reply ends the request before routing
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  };
}
