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
