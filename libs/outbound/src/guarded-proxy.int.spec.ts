import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { fetch, ProxyAgent } from 'undici';
import { networkInterfaces } from 'node:os';
import { GuardedProxy, openGuardedProxies, startGuardedProxy } from './guarded-proxy';
import { registerOwnListener } from './own-listeners';

describe('startGuardedProxy (real sockets)', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const proxies: GuardedProxy[] = [];
  const agents: ProxyAgent[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => res.end(`reached ${req.method} ${req.url}`));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    connections = 0;
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.close()));
    await Promise.all(proxies.map((p) => p.close()));
    await new Promise((resolve) => server.close(resolve));
  });

  const through = async (allowPrivate: boolean, tunnel: boolean) => {
    const proxy = await startGuardedProxy({ allowPrivate });
    proxies.push(proxy);
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: tunnel });
    agents.push(agent);
    return { proxy, agent };
  };

  it.each([
    ['forwarded', '127.0.0.1', false],
    ['forwarded', 'localhost', false],
    ['tunnelled (CONNECT)', '127.0.0.1', true],
    ['tunnelled (CONNECT)', 'localhost', true],
  ])('refuses a %s request to %s; nothing reaches the server', async (_kind, host, tunnel) => {
    const { proxy, agent } = await through(false, tunnel);
    const outcome = await fetch(`http://${host}:${port}/secret`, { dispatcher: agent }).then(
      (res) => ({ status: res.status, refused: res.headers.get('x-outbound-refused') }),
      (err: Error) => ({ error: String(err.cause ?? err) }),
    );
    // a forwarded request gets a 403 from the proxy; a refused tunnel fails the fetch
    if (tunnel) expect(outcome).toEqual({ error: expect.any(String) });
    else expect(outcome).toEqual({ status: 403, refused: '1' });
    expect(proxy.refusals).toEqual([{ host, reason: expect.stringMatching(/loopback/) }]);
    expect(connections).toBe(0);
  });

  it.each([false, true])('passes requests through when private addresses are allowed (tunnel: %s)', async (tunnel) => {
    const { agent } = await through(true, tunnel);
    const res = await fetch(`http://localhost:${port}/hello?x=1`, { dispatcher: agent });
    expect(await res.text()).toBe('reached GET /hello?x=1');
    expect(connections).toBe(1);
  });

  it.each([false, true])('never reaches one of our own listeners, even with private addresses allowed (tunnel: %s)', async (tunnel) => {
    const forget = registerOwnListener(port);
    try {
      const { proxy, agent } = await through(true, tunnel);
      const outcome = await fetch(`http://localhost:${port}/metrics`, { dispatcher: agent }).then(
        (res) => ({ status: res.status, refused: res.headers.get('x-outbound-refused') }),
        (err: Error) => ({ error: String(err.cause ?? err) }),
      );
      if (tunnel) expect(outcome).toEqual({ error: expect.any(String) });
      else expect(outcome).toEqual({ status: 403, refused: '1' });
      expect(proxy.refusals[0]).toEqual({ host: 'localhost', reason: expect.stringMatching(/Gauntlet's own listeners/) });
      expect(connections).toBe(0);
    } finally {
      forget();
    }
  });

  it('refuses requests aimed at the proxy itself (they would loop through it)', async () => {
    const { proxy, agent } = await through(true, false);
    const res = await fetch(`${proxy.url}/anything`, { dispatcher: agent });
    expect(res.status).toBe(403);
    expect(proxy.refusals[0].reason).toMatch(/own listeners/);
  });

  it('refuses our listeners on every address of this machine, not only loopback', async () => {
    const forget = registerOwnListener(port);
    try {
      const external = Object.values(networkInterfaces()).flat().find((n) => n && n.family === 'IPv4' && !n.internal);
      if (!external) return void console.warn('skipped: no non-loopback IPv4 interface');
      const { agent } = await through(true, false);
      const res = await fetch(`http://${external.address}:${port}/`, { dispatcher: agent });
      expect(res.status).toBe(403);
      expect(connections).toBe(0);
    } finally {
      forget();
    }
  });

  it('counts the proxies open, and closing twice closes once', async () => {
    const before = openGuardedProxies();
    const proxy = await startGuardedProxy({ allowPrivate: true });
    expect(openGuardedProxies()).toBe(before + 1);
    await Promise.all([proxy.close(), proxy.close()]);
    expect(openGuardedProxies()).toBe(before);
  });
});

describe('startGuardedProxy bounds what a hostile upstream can hold', () => {
  let server: Server;
  let port: number;
  /** upstream sockets the server sees open now */
  const open = new Set<import('node:net').Socket>();
  const timers = new Set<NodeJS.Timeout>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow-headers') return; // never answers
      if (req.url === '/never-ending') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const t = setInterval(() => res.write('x'), 20);
        timers.add(t);
        res.on('close', () => (clearInterval(t), timers.delete(t)));
        return;
      }
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', pump);
        return pump();
      }
      res.end('ok');
    });
    server.on('connection', (s) => {
      open.add(s);
      s.on('close', () => open.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const t of timers) clearInterval(t);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** the server's sockets are gone: a bounded poll, not a timing assertion */
  const drained = async () => {
    for (let i = 0; i < 100 && open.size > 0; i++) await new Promise((r) => setTimeout(r, 50));
    return open.size;
  };

  const withProxy = async <T>(options: Parameters<typeof startGuardedProxy>[1], tunnel: boolean, run: (agent: ProxyAgent, proxy: GuardedProxy) => Promise<T>) => {
    const proxy = await startGuardedProxy({ allowPrivate: true }, options);
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: tunnel });
    try {
      return await run(agent, proxy);
    } finally {
      await agent.close().catch(() => undefined);
      await proxy.close();
    }
  };

  it('answers 504 when the upstream sends no headers in time, and drops its socket', async () => {
    await withProxy({ headersTimeoutMs: 300 }, false, async (agent, proxy) => {
      const res = await fetch(`http://127.0.0.1:${port}/slow-headers`, { dispatcher: agent });
      expect(res.status).toBe(504);
      await res.text();
      expect(await drained()).toBe(0);
      expect(proxy.upstreams()).toBe(0);
    });
  });

  it.each([false, true])('cuts a body past the byte budget (tunnel: %s)', async (tunnel) => {
    await withProxy({ maxBytes: 256 * 1024 }, tunnel, async (agent, proxy) => {
      let received = 0;
      const outcome = await fetch(`http://127.0.0.1:${port}/huge`, { dispatcher: agent }).then(
        async (res) => {
          for await (const chunk of res.body!) received += (chunk as Uint8Array).length;
          return 'complete';
        },
        () => 'failed',
      ).catch(() => 'cut');
      expect(outcome).not.toBe('complete');
      expect(received).toBeLessThanOrEqual(256 * 1024 + 64 * 1024);
      expect(await drained()).toBe(0);
      expect(proxy.upstreams()).toBe(0);
    });
  });

  it.each([false, true])('ends the upstream when the browser side goes away (tunnel: %s)', async (tunnel) => {
    await withProxy({}, tunnel, async (agent, proxy) => {
      const abort = new AbortController();
      const res = await fetch(`http://127.0.0.1:${port}/never-ending`, { dispatcher: agent, signal: abort.signal });
      const reader = res.body!.getReader();
      await reader.read();
      expect(open.size).toBe(1);
      abort.abort();
      await reader.cancel().catch(() => undefined);
      await agent.close().catch(() => undefined);
      expect(await drained()).toBe(0);
      for (let i = 0; i < 100 && proxy.upstreams() > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(proxy.upstreams()).toBe(0);
    });
  });

  it.each([false, true])('ends every upstream when the proxy closes (tunnel: %s)', async (tunnel) => {
    const proxy = await startGuardedProxy({ allowPrivate: true });
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: tunnel });
    try {
      const bodies = await Promise.all([1, 2, 3].map(() => fetch(`http://127.0.0.1:${port}/never-ending`, { dispatcher: agent })));
      await Promise.all(bodies.map((b) => b.body!.getReader().read()));
      expect(proxy.upstreams()).toBe(3);
      await proxy.close();
      expect(proxy.upstreams()).toBe(0);
      expect(await drained()).toBe(0);
    } finally {
      await agent.destroy().catch(() => undefined);
      await proxy.close();
    }
  });

  it('ends an upstream that sends nothing for the idle time', async () => {
    const quiet = createServer((req, res) => void res.writeHead(200).write('first byte, then nothing'));
    await new Promise<void>((resolve) => quiet.listen(0, '127.0.0.1', resolve));
    try {
      await withProxy({ idleTimeoutMs: 300 }, false, async (agent, proxy) => {
        const res = await fetch(`http://127.0.0.1:${(quiet.address() as AddressInfo).port}/`, { dispatcher: agent });
        await expect(res.text()).rejects.toThrow();
        expect(proxy.upstreams()).toBe(0);
      });
    } finally {
      quiet.closeAllConnections();
      await new Promise((resolve) => quiet.close(resolve));
    }
  });
});
