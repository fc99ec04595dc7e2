import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { guardedDispatcher } from '@gauntlet/outbound';
import { deliver } from './deliver';

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

describe('deliver (real HTTP on 127.0.0.1)', () => {
  let server: Server;
  let base: string;
  let handler: Handler;
  const seen: { method: string; headers: IncomingMessage['headers']; body: Buffer; url: string }[] = [];
  const dispatcher = guardedDispatcher({ allowPrivate: true });
  const request = (path: string) => ({ url: base + path, body: Buffer.from('{"event":"ping"}'), contentType: 'application/json', headers: { 'x-service-event': 'ping' } });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        seen.push({ method: req.method!, headers: req.headers, body, url: req.url! });
        handler(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await dispatcher.close();
  });
  beforeEach(() => (seen.length = 0));

  it('POSTs the body with its content type and headers; 2xx succeeds', async () => {
    handler = (_q, res) => res.writeHead(204).end();
    const r = await deliver(request('/hook'), { timeoutMs: 2000, dispatcher });
    expect(r).toMatchObject({ ok: true, status: 204 });
    expect(r.duration_ms).toBeGreaterThanOrEqual(0);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/hook' });
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(seen[0].headers['x-service-event']).toBe('ping');
    expect(seen[0].body.toString()).toBe('{"event":"ping"}');
  });

  it('does not follow redirects: a 3xx is a failure', async () => {
    handler = (req, res) => (req.url === '/moved' ? res.writeHead(302, { location: '/elsewhere' }).end() : res.writeHead(200).end());
    const r = await deliver(request('/moved'), { timeoutMs: 2000, dispatcher });
    expect(r).toMatchObject({ ok: false, status: 302, error: 'redirect 302 not followed' });
    expect(seen.map((s) => s.url)).toEqual(['/moved']);
  });

  it('marks 410 as gone and reads Retry-After on 429', async () => {
    handler = (_q, res) => res.writeHead(410).end('gone');
    expect(await deliver(request('/'), { timeoutMs: 2000, dispatcher })).toMatchObject({ ok: false, status: 410, gone: true });
    handler = (_q, res) => res.writeHead(429, { 'retry-after': '120' }).end();
    expect(await deliver(request('/'), { timeoutMs: 2000, dispatcher })).toMatchObject({ ok: false, status: 429, retry_after_ms: 120_000 });
    handler = (_q, res) => res.writeHead(500).end();
    expect(await deliver(request('/'), { timeoutMs: 2000, dispatcher })).toMatchObject({ ok: false, status: 500, error: 'HTTP 500' });
  });

  it('times out a receiver that does not answer', async () => {
    handler = () => undefined; // never answers
    const r = await deliver(request('/slow'), { timeoutMs: 150, dispatcher });
    expect(r).toMatchObject({ ok: false, error: 'timed out after 150 ms' });
    expect(r.duration_ms).toBeGreaterThanOrEqual(140);
    expect(r.duration_ms).toBeLessThan(2000);
  });

  it('reads a bounded part of a huge response and still succeeds', async () => {
    handler = (_q, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 97);
      let sent = 0;
      const pump = () => {
        while (sent < 200 && res.write(chunk)) sent++;
        if (sent < 200) res.once('drain', pump);
        else res.end();
      };
      pump();
    };
    expect(await deliver(request('/big'), { timeoutMs: 2000, dispatcher })).toMatchObject({ ok: true, status: 200 });
  });

  it('is refused by the outbound guard when private addresses are not allowed', async () => {
    handler = (_q, res) => res.writeHead(200).end();
    const strict = guardedDispatcher({ allowPrivate: false });
    const r = await deliver(request('/'), { timeoutMs: 2000, dispatcher: strict });
    await strict.close();
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/Refused to connect to 127\.0\.0\.1/);
    expect(seen).toHaveLength(0);
  });

  it('reports a refused connection', async () => {
    const r = await deliver({ ...request('/'), url: 'http://127.0.0.1:1/' }, { timeoutMs: 2000, dispatcher });
    expect(r).toMatchObject({ ok: false });
    expect(r.error).toMatch(/ECONNREFUSED/);
  });
});
