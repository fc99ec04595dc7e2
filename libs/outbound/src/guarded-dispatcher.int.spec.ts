import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Dispatcher, fetch } from 'undici';
import { guardedDispatcher, isOutboundRefusal } from './guarded-dispatcher';
import { registerOwnListener } from './own-listeners';

describe('guardedDispatcher (real sockets)', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  const dispatchers: Dispatcher[] = [];

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('reached'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await Promise.all(dispatchers.map((d) => d.close()));
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    connections = 0;
  });

  const dispatcher = (allowPrivate: boolean) => {
    const d = guardedDispatcher({ allowPrivate }, { connectTimeoutMs: 2_000 });
    dispatchers.push(d);
    return d;
  };
  const failure = (p: Promise<unknown>) => p.then(() => null, (err: unknown) => err);

  it.each(['127.0.0.1', 'localhost'])('refuses http://%s:<port> at connect time; nothing reaches the server', async (host) => {
    const err = await failure(fetch(`http://${host}:${port}/`, { dispatcher: dispatcher(false) }));
    expect(err).toBeInstanceOf(TypeError); // fetch's "fetch failed", the refusal is its cause
    expect(isOutboundRefusal(err)).toBe(true);
    expect(String((err as { cause?: Error }).cause?.message)).toMatch(new RegExp(`Refused to connect to ${host}: .*loopback`));
    expect(connections).toBe(0);
  });

  it('refuses an IPv4-mapped IPv6 literal pointing at the same server', async () => {
    const err = await failure(fetch(`http://[::ffff:127.0.0.1]:${port}/`, { dispatcher: dispatcher(false) }));
    expect(isOutboundRefusal(err)).toBe(true);
    expect(connections).toBe(0);
  });

  it('refuses through undici.request as well as fetch', async () => {
    const d = dispatcher(false);
    const err = await failure(d.request({ origin: `http://localhost:${port}`, path: '/', method: 'GET' }));
    expect(isOutboundRefusal(err)).toBe(true);
    expect(connections).toBe(0);
  });

  it.each(['127.0.0.1', 'localhost'])('connects to http://%s:<port> when private addresses are allowed', async (host) => {
    const res = await fetch(`http://${host}:${port}/`, { dispatcher: dispatcher(true) });
    expect(await res.text()).toBe('reached');
    expect(connections).toBe(1);
  });

  it('still refuses the metadata address when private addresses are allowed', async () => {
    const err = await failure(fetch('http://169.254.169.254/latest/meta-data/', { dispatcher: dispatcher(true) }));
    expect(isOutboundRefusal(err)).toBe(true);
  });

  it.each(['127.0.0.1', 'localhost'])('refuses our own listener at %s even when private addresses are allowed', async (host) => {
    const forget = registerOwnListener(port);
    try {
      const err = await failure(fetch(`http://${host}:${port}/metrics`, { dispatcher: dispatcher(true) }));
      expect(isOutboundRefusal(err)).toBe(true);
      expect(String((err as { cause?: Error }).cause?.message)).toMatch(/own listeners/);
      expect(connections).toBe(0);
    } finally {
      forget();
    }
    // forgotten: reachable again under the lenient policy
    expect(await (await fetch(`http://${host}:${port}/`, { dispatcher: dispatcher(true) })).text()).toBe('reached');
  });

  it('does not mistake an ordinary connection failure for a refusal', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(fetch(`http://127.0.0.1:${freePort}/`, { dispatcher: dispatcher(true) }));
    expect(err).toBeInstanceOf(TypeError);
    expect(isOutboundRefusal(err)).toBe(false);
  });
});
