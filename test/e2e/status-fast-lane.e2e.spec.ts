import { client, removeDir, RunningService, signUp, startService } from '../support/service';
import { insideOneClockWindow } from '../support/clock-window';

/**
 * GET /api/scans/{id}/status has a fast lane in front of the Nest route (scans/status-fast-lane.ts).
 * These cases hold it to the route: the same answers, the same rate limit budget, and every case
 * it must not answer left to the route.
 */
describe('the status fast lane answers as the route does', () => {
  const LIMIT = 40;
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_PER_MINUTE: String(LIMIT) }, ['api', 'projector']);
  });
  afterAll(async () => {
    await svc.stop();
    removeDir(svc.dataDir);
  });

  const laneAnswers = async () => (await svc.runtime.metrics.statusFastLane.get()).values[0]?.value ?? 0;
  const target = { name: 'bot', url: 'http://127.0.0.1:9/v1/chat/completions', scan_mode: 'api', api_format: 'openai' };
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let scanId: string;

  it('gives the same answer as the route once the token is verified, and sees every change', async () => {
    owner = await signUp(svc.url);
    const t = await owner.api.post('/api/targets', target);
    scanId = (await owner.api.post('/api/scans', { target_id: t.body.id })).body.id;
    // a new token (tokens carry their issue second): its first use goes through passport-jwt and the whole pipeline
    await new Promise((r) => setTimeout(r, 1100));
    const login = await client(svc.url).post('/api/auth/login', { email: owner.email, password: 'a-long-enough-password' });
    const fresh = client(svc.url, { token: login.body.access_token });

    const before = await laneAnswers();
    const byRoute = await fresh.get(`/api/scans/${scanId}/status`);
    expect(await laneAnswers()).toBe(before);
    const byLane = await fresh.get(`/api/scans/${scanId}/status`);
    expect(await laneAnswers()).toBe(before + 1);

    for (const res of [byRoute, byLane]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'pending', progress: 0, phase: 'queued', findings_so_far: 0, seconds_left: null, reason: null, partial: false, coverage: null });
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-request-id')).toMatch(uuid);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    }
    // one budget: the lane spent exactly one request of it, as the route does
    expect(Number(byLane.headers.get('x-ratelimit-remaining'))).toBe(Number(byRoute.headers.get('x-ratelimit-remaining')) - 1);

    // a change is seen at once (read-your-writes), still from the lane
    expect((await owner.api.post(`/api/scans/${scanId}/cancel`)).status).toBe(200);
    const after = await owner.api.get(`/api/scans/${scanId}/status`);
    expect(after.body).toMatchObject({ status: 'cancelled', phase: 'done', reason: `cancelled by ${owner.email}`, cancelled_by_name: owner.email });
    expect(await laneAnswers()).toBe(before + 2);
  });

  it('leaves to the route whatever it cannot prove: other accounts, bad or unknown ids, API keys, unverified tokens, two credentials', async () => {
    const other = await signUp(svc.url);
    await other.api.get('/api/account'); // its token is verified now
    const before = await laneAnswers();

    const notYours = await other.api.get(`/api/scans/${scanId}/status`);
    expect(notYours.status).toBe(404);
    expect(notYours.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await owner.api.get('/api/scans/not-a-uuid/status')).status).toBe(400);
    expect((await owner.api.get('/api/scans/6f1c1d2e-8a7b-4c3d-9e8f-0a1b2c3d4e5f/status')).status).toBe(404);

    const [head, payload, signature] = owner.token.split('.');
    const forged = `${head}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await client(svc.url, { token: forged }).get(`/api/scans/${scanId}/status`)).status).toBe(401);

    const key = (await owner.api.post('/api/api-keys', { name: 'ci' })).body.key;
    const byKey = await client(svc.url, { apiKey: key }).get(`/api/scans/${scanId}/status`);
    expect(byKey.status).toBe(200);
    expect(byKey.body).toMatchObject({ status: 'cancelled' });
    // a verified token with a key beside it is refused by the route, so the lane must not answer it either
    const both = await client(svc.url, { token: owner.token, apiKey: key }).get(`/api/scans/${scanId}/status`);
    expect(both.status).toBe(401);
    expect(both.body.detail).toBe('Send one credential: a bearer token or an API key, not both.');

    expect(await laneAnswers()).toBe(before);
  });

  it('spends the same per-IP budget as every other route, and lets the route answer 429 when it is spent', async () => {
    const poll = () => owner.api.get(`/api/scans/${scanId}/status`);
    await insideOneClockWindow(60_000, 40_000);
    const before = await laneAnswers();
    let res = await poll();
    let remaining = Number(res.headers.get('x-ratelimit-remaining'));
    expect(remaining).toBeGreaterThan(0);
    while (remaining > 0) {
      // alternate with another route: both draw on one budget
      res = remaining % 2 ? await poll() : await owner.api.get('/api/targets');
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
      remaining -= 1;
    }
    const limited = await poll();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await laneAnswers()).toBeGreaterThan(before);
  }, 120_000);
});
