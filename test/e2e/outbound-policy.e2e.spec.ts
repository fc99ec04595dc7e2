import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { removeDir, signUp, startService } from '../support/service';

// its own file: passport keeps one 'jwt' strategy per module registry, so two services alive at
// once in one test file would verify each other's tokens (one service per process in production)
describe('outbound URL policy at registration', () => {
  // a service starts per test: on a busy 2-core machine that alone can pass jest's 5 s default
  jest.setTimeout(30_000);
  const apiTarget = { name: 'Support bot', url: 'http://127.0.0.1:9/v1/chat/completions', scan_mode: 'api', api_format: 'openai' };

  it('refuses target URLs on private addresses when the operator has not allowed them', async () => {
    const strict = await startService({ RATE_LIMIT_PER_MINUTE: '100000', OUTBOUND_ALLOW_PRIVATE: 'false' }, ['api', 'projector']);
    try {
      const { api } = await signUp(strict.url);
      for (const url of ['http://127.0.0.1/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/x']) {
        const res = await api.post('/api/targets', { ...apiTarget, url });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].field).toBe('url');
      }
      // an MCP server's address is held to the same rule, and the problem names its own field
      const allowed = { ...apiTarget, url: 'https://bot.example.com/v1/chat/completions' };
      const mcp = await api.post('/api/targets', { ...allowed, tools: { mcp: { url: 'http://10.1.2.3/mcp' } } });
      expect([mcp.status, mcp.body.errors[0].field]).toEqual([400, 'tools.mcp.url']);
      const created = await api.post('/api/targets', allowed);
      expect(created.status).toBe(201);
      const patched = await api.patch(`/api/targets/${created.body.id}`, { tools: { mcp: { url: 'http://127.0.0.1/mcp' } } });
      expect([patched.status, patched.body.errors[0].field]).toEqual([400, 'tools.mcp.url']);
    } finally {
      await strict.stop();
      removeDir(strict.dataDir);
    }
  });

  it('the connection check names OUTBOUND_ALLOW_PRIVATE when a host name resolves to this machine', async () => {
    const strict = await startService({ RATE_LIMIT_PER_MINUTE: '100000', OUTBOUND_ALLOW_PRIVATE: 'false' }, ['api', 'projector']);
    try {
      const { api } = await signUp(strict.url);
      // this machine's own name (from /etc/hosts: loopback, or the container's private address)
      // passes registration; the address it resolves to is refused at connect time
      const name = hostname();
      expect((await lookup(name)).address).toMatch(/^(127\.|10\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.|::1$|f[cd])/);
      const target = await api.post('/api/targets', { ...apiTarget, url: `http://${name}:8088/v1` });
      expect(target.status).toBe(201);
      const check = await api.post(`/api/targets/${target.body.id}/check`);
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({ ok: false, status: null, endpoint: `http://${name}:8088/v1/chat/completions` });
      expect(check.body.diagnosis).toMatch(/outbound policy refused/);
      expect(check.body.hint).toMatch(/OUTBOUND_ALLOW_PRIVATE=true/);
    } finally {
      await strict.stop();
      removeDir(strict.dataDir);
    }
  });

  it('never reaches the service itself, even with private addresses allowed: a target or a webhook at its own port is refused', async () => {
    const lenient = await startService({ RATE_LIMIT_PER_MINUTE: '100000', OUTBOUND_ALLOW_PRIVATE: 'true' }, ['api', 'projector']);
    try {
      const { api } = await signUp(lenient.url);
      // the api's own /v1 (nothing answers there, but a connection would already reach it) and /metrics
      const target = await api.post('/api/targets', { ...apiTarget, url: `${lenient.url}/v1`, check: true });
      expect(target.status).toBe(201);
      expect(target.body.check).toMatchObject({ ok: false, status: null });
      expect(target.body.check.diagnosis).toMatch(/own listeners/);
      expect(target.body.check.hint).toMatch(/Gauntlet itself/);
      const hook = await api.post('/api/webhooks', { url: `${lenient.url.replace('127.0.0.1', 'localhost')}/metrics`, event_types: ['scan.completed'], format_type: 'json' });
      expect(hook.status).toBe(201);
      const ping = await api.post(`/api/webhooks/${hook.body.id}/test`);
      expect(JSON.stringify(ping.body)).toMatch(/own listeners|refused/i);
    } finally {
      await lenient.stop();
      removeDir(lenient.dataDir);
    }
  });
});
