import { createHmac } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { accountIdFor, hashPassword } from '@gauntlet/auth';
import { accountDecider, streams } from '@gauntlet/domain';
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

  it('gives accounts random ids and keeps each email to one account, old accounts with derived ids included', async () => {
    const anon = client(svc.url);
    for (let i = 0; i < 3; i++) {
      const { id, email } = await signUp(svc.url);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(id).not.toBe(accountIdFor(email));
    }

    // several registrations of one email at once: exactly one account
    const email = 'race@example.com';
    const answers = await Promise.all(Array.from({ length: 6 }, () => anon.post('/api/auth/register', { email, password: 'long-enough-pass' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(answers.find((a) => a.status === 201)!.body.id).not.toBe(accountIdFor(email));

    // an account from before reservations: its id derived from the email, no reservation stream
    const legacyEmail = 'legacy@example.com';
    const legacyId = accountIdFor(legacyEmail);
    await svc.runtime.writePath.commit(accountDecider, streams.account(legacyId), {
      type: 'RegisterAccount', account_id: legacyId, email: legacyEmail, password_hash: await hashPassword('legacy-password-1'), plan: 'free', role: 'member', now: new Date().toISOString(),
    }, { actor: 'system', correlationId: 'legacy' });
    const login = await anon.post('/api/auth/login', { email: legacyEmail, password: 'legacy-password-1' });
    expect(login.status).toBe(200);
    expect((await client(svc.url, { token: login.body.access_token }).get('/api/account')).body).toMatchObject({ id: legacyId, email: legacyEmail });
    expect((await anon.post('/api/auth/register', { email: 'LEGACY@example.com', password: 'long-enough-pass' })).status).toBe(409);
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
