import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The dashboard's pages only ever load their own files and call this same origin; anything
 * else (an injected <script>, an inline handler, a form posting elsewhere) is refused by the browser.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The built dashboard (dist/apps/dashboard: the page and styles copied from apps/dashboard, the
 * bundle esbuild makes from apps/dashboard/src), found beside this file in dist/ and, from the
 * sources (jest), in the dist/ that `npm run build` wrote.
 */
export function dashboardRoot(from = __dirname): string {
  const candidates = [resolve(from, '../../../dashboard'), resolve(process.cwd(), 'dist/apps/dashboard')];
  const found = candidates.find((dir) => existsSync(join(dir, 'index.html')) && existsSync(join(dir, DASHBOARD_BUNDLE)));
  if (!found) throw new Error(`dashboard bundle not found (looked in ${candidates.join(', ')}): run npm run build`);
  return found;
}

/** the one script the page loads */
export const DASHBOARD_BUNDLE = 'assets/js/main.js';

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', DASHBOARD_CSP)
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    // revalidated on every load (ETag), so a new deploy is picked up without a hard refresh
    .header('Cache-Control', 'no-cache');
}

/**
 * Serves the dashboard: `/` and every `/app/...` page route answer the single page (the client
 * routes by path); `/app/assets/...` are its bundled script and its styles. Must be called before the app listens.
 */
export async function serveDashboard(fastify: FastifyInstance, root = dashboardRoot()): Promise<void> {
  await fastify.register(fastifyStatic, { root, serve: false, index: false, dotfiles: 'deny', cacheControl: false });

  const page = (_req: unknown, reply: FastifyReply) => secure(reply).type('text/html; charset=utf-8').sendFile('index.html');
  fastify.get('/', page);
  fastify.get('/app', page);
  fastify.get('/app/*', (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    // send() resolves inside root and refuses traversal; a missing asset falls through to the API's 404
    if (rest.startsWith('assets/')) return secure(reply).sendFile(rest);
    return page(request, reply);
  });
}
