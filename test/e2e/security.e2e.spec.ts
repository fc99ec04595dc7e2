import { createHmac } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { client, removeDir, RunningService, signUp, startService } from '../support/service';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** an HS256 token signed with `secret`, claims as given */
function sign(claims: object, secret: string, header: object = { alg: 'HS256', typ: 'JWT' }): string {
  const unsigned = `${b64(header)}.${b64(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('credentials, secrets at rest and the metrics endpoint', () => {
  const METRICS_TOKEN = 'metrics-scraper-token-0123456789';
  let svc: RunningService;
  let user: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000', METRICS_TOKEN }, ['api', 'projector']);
    user = await signUp(svc.url);
  });
  afterAll(async () => {
    await svc.stop();
    removeDir(svc.dataDir);
  });

  it('refuses a token that is validly signed but never expires, and every other forged or stale token', async () => {
    const secret = svc.runtime.config.jwtSecret;
    const now = Math.floor(Date.now() / 1000);
    const good = { sub: user.id, iss: 'gauntlet', aud: 'gauntlet-api', iat: now };
    // the control: the same claims with an expiry are accepted, so the refusals below are about what they change
    expect((await client(svc.url, { token: sign({ ...good, exp: now + 600 }, secret) }).get('/api/account')).status).toBe(200);
    const refused = [
      sign(good, secret), // no exp
      sign({ ...good, exp: now - 10 }, secret), // expired
      sign({ ...good, exp: now + 600 }, 'another-secret-of-at-least-32-characters'), // someone else's key
      sign({ ...good, exp: now + 600, aud: 'other' }, secret),
      sign({ ...good, exp: now + 600, iss: 'other' }, secret),
      sign({ ...good, exp: `${now + 600}` }, secret),
      sign({ ...good, exp: now + 600 }, secret, { alg: 'HS512', typ: 'JWT' }),
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...good, exp: now + 600 })}.`,
      sign({ ...good, sub: '6f1c1d2e-8a7b-4c3d-9e8f-0a1b2c3d4e5f', exp: now + 600 }, secret), // no such account
      'a'.repeat(8000),
    ];
    for (const token of refused) {
      const res = await client(svc.url, { token }).get('/api/account');
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('refuses a request carrying both a bearer token and an API key, even when both are good', async () => {
    const key = (await user.api.post('/api/api-keys', { name: 'ci' })).body.key;
    expect((await client(svc.url, { apiKey: key }).get('/api/targets')).status).toBe(200);
    const both = await client(svc.url, { token: user.token, apiKey: key }).get('/api/targets');
    expect(both.status).toBe(401);
    expect(both.body.detail).toMatch(/not both/);
    expect((await client(svc.url, { token: user.token, apiKey: 'gk_bad' }).get('/api/targets')).status).toBe(401);
  });

  it('keeps DATA_DIR to its owner: the directory 0700, every file in it 0600', async () => {
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(svc.dataDir) & 0o077).toBe(0);
    const files = readdirSync(svc.dataDir);
    expect(files).toEqual(expect.arrayContaining(['gauntlet.db', 'secrets.json']));
    for (const f of files) expect([f, mode(join(svc.dataDir, f))]).toEqual([f, 0o600]);
  });

  it('serves /metrics only to a scraper with METRICS_TOKEN', async () => {
    const anon = await client(svc.url).get('/metrics');
    expect(anon.status).toBe(401);
    expect(anon.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await client(svc.url, { token: 'metrics-scraper-token-wrong-0000' }).get('/metrics')).status).toBe(401);
    expect((await client(svc.url, { token: user.token }).get('/metrics')).status).toBe(401);
    const scraped = await client(svc.url, { token: METRICS_TOKEN }).get('/metrics');
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain('gauntlet_http_request_duration_seconds');
  });
});
