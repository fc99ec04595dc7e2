import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { fetch, ProxyAgent } from 'undici';
import { CallbackHook, startGuardedProxy } from './guarded-proxy';

/** Browser mode: a chat page's request to Gauntlet's callback listener is answered at the proxy, never connected out. */
describe('startGuardedProxy with a callback hook (real sockets)', () => {
  let listener: Server;
  let base: string;
  let connections = 0;

  beforeAll(async () => {
    // where the callback base points: loopback, which the policy refuses to a page
    listener = createServer((_req, res) => res.end('reached the socket'));
    listener.on('connection', () => connections++);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/oob`;
  });
  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
  });

  it('answers a request under the callback base through the hook, without connecting out; other loopback paths stay refused', async () => {
    const seen: string[] = [];
    const hook: CallbackHook = { base, answer: async ({ method, url }) => (seen.push(`${method} ${url}`), { status: 200, headers: { 'content-type': 'image/gif' }, body: 'GIF' }) };
    const proxy = await startGuardedProxy({ allowPrivate: false }, { onCallback: hook });
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: false });
    try {
      const hit = await fetch(`${base}/TOKEN123/pixel.png?u=x`, { dispatcher: agent });
      expect(hit.status).toBe(200);
      expect(await hit.text()).toBe('GIF');
      expect(seen).toEqual([`GET ${base}/TOKEN123/pixel.png?u=x`]);
      const elsewhere = await fetch(`${base.replace(/\/oob$/, '')}/other`, { dispatcher: agent });
      expect(elsewhere.status).toBe(403);
      const lookalike = await fetch(`${base}x/TOKEN`, { dispatcher: agent });
      expect(lookalike.status).toBe(403);
      expect(connections).toBe(0);
    } finally {
      await agent.close();
      await proxy.close();
    }
  });
});
