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
  /** outbound connections (forwarded requests and tunnels) open now */
  readonly upstreams: () => number;
  /** ends every connection in both directions, then stops listening */
  close(): Promise<void>;
}

/** Bounds on what one page can make the proxy hold; an options object so other hooks can join it. */
export interface GuardedProxyOptions {
  /** connecting plus the upstream's response headers (forwarded) or connection (tunnel), at most (default 15 s) */
  headersTimeoutMs?: number;
  /** no byte either way for this long ends the connection (default 60 s: a chat socket waits on a slow answer) */
  idleTimeoutMs?: number;
  /** bytes one connection may carry, both directions together, before it is cut (default 32 MiB) */
  maxBytes?: number;
  /** outbound connections open at once; beyond, a request answers 503 and a tunnel is refused (default 128) */
  maxUpstreams?: number;
  /** Gauntlet's callback listener: requests under its base are answered and recorded, never connected out */
  onCallback?: CallbackHook;
}

export const GUARDED_PROXY_DEFAULTS: Required<Omit<GuardedProxyOptions, 'onCallback'>> = {
  headersTimeoutMs: 15_000,
  idleTimeoutMs: 60_000,
  maxBytes: 32 * 1024 * 1024,
  maxUpstreams: 128,
};

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
 *
 * A page is hostile: every outbound connection is tracked, bounded in time (headers, idle) and
 * in bytes, and destroyed with its browser side (whichever closes first) and when the proxy
 * closes, so a page that never finishes its responses holds nothing after its check or scan.
 */
export async function startGuardedProxy(policy: OutboundPolicy, options: GuardedProxyOptions = {}): Promise<GuardedProxy> {
  const { onCallback, ...bounds } = options;
  const limits = { ...GUARDED_PROXY_DEFAULTS, ...definedOnly(bounds) };
  const refusals: Array<{ host: string; reason: string }> = [];
  /** the browser's connections to us */
  const sockets = new Set<Socket>();
  /** our connections out: each entry ends its connection and both sides of it */
  const upstreams = new Set<() => void>();
  const refused = (err: unknown): err is OutboundRefusedError => {
    if (!isOutboundRefusal(err)) return false;
    refusals.push({ host: err.host, reason: err.reason });
    if (refusals.length > 100) refusals.shift();
    return true;
  };

  /** one outbound connection's bounds: a deadline until `ready`, then idle time and a byte budget */
  const track = (end: () => void) => {
    let finished = false;
    let bytes = 0;
    let idle: NodeJS.Timeout | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(headers);
      clearTimeout(idle);
      upstreams.delete(finish);
      end();
    };
    const headers = setTimeout(finish, limits.headersTimeoutMs);
    const touch = () => {
      clearTimeout(idle);
      if (!finished) idle = setTimeout(finish, limits.idleTimeoutMs);
    };
    upstreams.add(finish);
    return {
      finish,
      ready: () => (clearTimeout(headers), touch()),
      /** counts bytes carried; past the budget the connection is ended */
      carried: (chunk: Buffer | string) => {
        bytes += chunk.length;
        if (bytes > limits.maxBytes) finish();
        else touch();
      },
    };
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
    if (onCallback && isCallback(target, onCallback.base)) return void answerCallback(onCallback, req, res, target);
    const port = Number(target.port || 80);
    const literal = literalHostRefusal(target.hostname, policy, port);
    if (literal) return void (refused(literal), refuse(res, literal));
    if (upstreams.size >= limits.maxUpstreams) return void res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('too many connections');
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
        bounds.ready();
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', bounds.carried);
        answer.pipe(res);
      },
    );
    const bounds = track(() => {
      upstream.destroy();
      // a response cut short must not look complete to the browser
      if (!res.writableEnded) {
        if (res.headersSent) res.destroy();
        else res.writeHead(504, { 'content-type': 'text/plain' }).end('upstream too slow or too large');
      }
    });
    req.on('data', bounds.carried);
    upstream.on('close', () => bounds.finish());
    // the browser went away (page closed, navigation, context closed): so does the upstream
    res.on('close', () => bounds.finish());
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
    if (upstreams.size >= limits.maxUpstreams) return void client.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n');
    const upstream = connect({ host: hostname.replace(/^\[|\]$/g, ''), port, lookup: guardedLookup(policy, port) as never });
    const bounds = track(() => {
      upstream.destroy();
      client.destroy();
    });
    // either side closing ends the tunnel: half a tunnel is a socket nobody reads
    upstream.on('close', () => bounds.finish());
    client.on('close', () => bounds.finish());
    upstream.once('connect', () => {
      bounds.ready();
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.on('data', bounds.carried);
      client.on('data', bounds.carried);
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
  // a browser connection that sends nothing (or headers slowly) is not kept either
  server.headersTimeout = limits.headersTimeoutMs;

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
    upstreams: () => upstreams.size,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const finish of [...upstreams]) finish();
        for (const s of sockets) s.destroy();
        await stopped;
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

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Partial<T>;
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
