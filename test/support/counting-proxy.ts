import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { request } from 'undici';

/** A loopback proxy in front of a target that counts what reaches it. */
export interface CountingProxy {
  /** the proxy's base URL: the target's paths under it */
  url: string;
  /** POST requests that went through (chat requests: what a scan spends) */
  posts(): number;
  close(): Promise<void>;
}

/**
 * Forwards every request to `upstream` (a base URL) as it came, and counts the POSTs: what a target
 * behind it really received, whatever the scanner believes it sent. Answers stream back as they
 * come; nothing is changed on the way.
 */
export async function startCountingProxy(upstream: string): Promise<CountingProxy> {
  let posts = 0;
  const base = upstream.replace(/\/+$/, '');
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST') posts++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k))) as Record<string, string>;
    const answer = await request(`${base}${req.url ?? '/'}`, { method: req.method as 'POST', headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !['connection', 'transfer-encoding', 'content-length', 'keep-alive'].includes(k)) out[k] = String(v);
    res.writeHead(answer.statusCode, out);
    for await (const chunk of answer.body) res.write(chunk);
    res.end();
  };
  const server: Server = createServer((req, res) => {
    forward(req, res).catch(() => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts: () => posts,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
