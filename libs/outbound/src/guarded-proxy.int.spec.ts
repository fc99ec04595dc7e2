import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { fetch, ProxyAgent } from 'undici';
import { GuardedProxy, startGuardedProxy } from './guarded-proxy';

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
});
