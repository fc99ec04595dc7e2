import { createServer, IncomingMessage, request as httpRequest, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { OutboundPolicy } from './address-policy';
import { guardedLookup, isOutboundRefusal, literalHostRefusal, OutboundRefusedError } from './guarded-dispatcher';
import { registerOwnListener } from './own-listeners';

/** proxies open in this process now: each is a listener a test can see left behind */
let openProxies = 0;
export function openGuardedProxies(): number {
  return openProxies;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`, for a browser's proxy setting */
  readonly url: string;
  /** what was refused so far (host and reason), newest last, bounded */
  readonly refusals: ReadonlyArray<{ host: string; reason: string }>;
  close(): Promise<void>;
}

/**
 * Gauntlet's own callback listener as the proxy meets it: a page's request under `base` (an
 * attacker's image the chat page rendered) is answered by `answer` and recorded there, never
 * connected out (the listener may sit on an address the policy refuses, e.g. loopback).
 */
export interface CallbackHook {
  /** CALLBACK_BASE_URL, e.g. `http://127.0.0.1:8787/oob` */
  base: string;
  answer(request: { method: string; url: string; headers: IncomingMessage['headers'] }): Promise<{ status: number; headers: Record<string, string>; body: string | Buffer }>;
}

/**
 * A forward HTTP proxy on loopback that applies the outbound policy to every connection it
 * makes, after DNS, exactly like the guarded dispatcher. A browser pointed at it (with
 * loopback not bypassed) cannot reach what the service itself may not: plain HTTP requests
 * are forwarded, HTTPS and WebSockets go through CONNECT tunnels, all checked at connect time.
 */
export async function startGuardedProxy(policy: OutboundPolicy, hooks: { onCallback?: CallbackHook } = {}): Promise<GuardedProxy> {
  const refusals: Array<{ host: string; reason: string }> = [];
  const sockets = new Set<Socket>();
  const refused = (err: unknown): err is OutboundRefusedError => {
    if (!isOutboundRefusal(err)) return false;
    refusals.push({ host: err.host, reason: err.reason });
    if (refusals.length > 100) refusals.shift();
    return true;
  };

  const server: Server = createServer((req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('not http');
    } catch {
      res.writeHead(400).end('absolute http URL expected');
      return;
    }
    if (hooks.onCallback && isCallback(target, hooks.onCallback.base)) return void answerCallback(hooks.onCallback, req, res, target);
    const port = Number(target.port || 80);
    const literal = literalHostRefusal(target.hostname, policy, port);
    if (literal) return void (refused(literal), refuse(res, literal));
    const upstream = httpRequest(
      {
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port,
        path: `${target.pathname}${target.search}`,
        method: req.method,
        headers: withoutHopByHop(req),
        lookup: guardedLookup(policy, port) as never,
        // a fresh connection each time: a pooled one would skip the lookup that checks the address
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (res.headersSent) return void res.destroy();
      if (refused(err)) return refuse(res, err);
      res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream unreachable');
    });
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    let hostname: string;
    let port: number;
    try {
      const parsed = new URL(`http://${req.url}`);
      hostname = parsed.hostname;
      port = Number(parsed.port || 443);
    } catch {
      return void client.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n');
    }
    const literal = literalHostRefusal(hostname, policy, port);
    if (literal) {
      refused(literal);
      return void client.end(`HTTP/1.1 403 Forbidden\r\nx-outbound-refused: 1\r\ncontent-length: 0\r\n\r\n`);
    }
    const upstream = connect({ host: hostname.replace(/^\[|\]$/g, ''), port, lookup: guardedLookup(policy, port) as never });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => {
      const status = refused(err) ? '403 Forbidden\r\nx-outbound-refused: 1' : '502 Bad Gateway';
      if (client.writable && !upstream.readableFlowing) client.end(`HTTP/1.1 ${status}\r\ncontent-length: 0\r\n\r\n`);
      else client.destroy();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  // a page must not reach the proxy itself as a destination (it would loop through us)
  const forget = registerOwnListener(port);
  openProxies++;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    refusals,
    close: () =>
      (closing ??= (async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        forget();
        openProxies--;
      })()),
  };
}

/** whether `target` is under the callback listener's base (same origin, path below it) */
function isCallback(target: URL, base: string): boolean {
  const b = new URL(base);
  return target.origin === b.origin && target.pathname.startsWith(`${b.pathname.replace(/\/+$/, '')}/`);
}

function answerCallback(hook: CallbackHook, req: IncomingMessage, res: import('node:http').ServerResponse, target: URL): void {
  req.resume(); // a body is not wanted: the page's request is proof enough
  hook
    .answer({ method: req.method ?? 'GET', url: target.href, headers: req.headers })
    .then((a) => res.writeHead(a.status, a.headers).end(a.body))
    .catch(() => res.writeHead(502).end());
}

function refuse(res: import('node:http').ServerResponse, err: OutboundRefusedError): void {
  res.writeHead(403, { 'content-type': 'text/plain', 'x-outbound-refused': '1' }).end(err.message);
}

const HOP_BY_HOP = ['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

function withoutHopByHop(req: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.includes(name)) headers[name] = value;
  }
  return headers;
}
