import { client, removeDir, RunningService, signUp, startService } from '../support/service';
import { insideOneClockWindow } from '../support/clock-window';

const ADMIN = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'admin-password-123' };

describe('core: accounts, targets and scans over HTTP (embedded)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ ...ADMIN, RATE_LIMIT_PER_MINUTE: '100000', SCAN_QUOTA_FREE: '3' }, ['api', 'projector']);
  });
  afterAll(async () => {
    await svc.stop();
    removeDir(svc.dataDir);
  });

  const apiTarget = { name: 'Support bot', url: 'http://127.0.0.1:9/v1/chat/completions', scan_mode: 'api', api_format: 'openai', api_key: 'sk-test-SUPERSECRET-123', model: 'lab-1', canaries: ['CANARY-XYZ-1'] };

  it('walks the new-user path: register, login, target, scan, status, lists', async () => {
    const { api, email } = await signUp(svc.url);
    const created = await api.post('/api/targets', apiTarget);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Support bot', scan_mode: 'api', api_format: 'openai', has_api_key: true, canaries: ['CANARY-XYZ-1'] });
    expect(created.text).not.toContain('SUPERSECRET');
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(created.body.created_at).toISOString()).toBe(created.body.created_at);

    // a GET right after a 201 never answers 404
    const got = await api.get(`/api/targets/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const list = await api.get('/api/targets');
    expect(list.status).toBe(200);
    expect(list.body.targets.map((t: any) => t.id)).toEqual([created.body.id]);
    expect(list.body.targets[0]).not.toHaveProperty('api_key');
    expect(list.body.next_cursor).toBeNull();

    const scan = await api.post('/api/scans', { target_id: created.body.id });
    expect(scan.status).toBe(201);
    expect(scan.body).toMatchObject({ status: 'pending', target_id: created.body.id, profile: 'standard' });
    expect(Object.keys(scan.body)).toEqual(expect.arrayContaining(['id', 'status', 'created_at']));

    const status = await api.get(`/api/scans/${scan.body.id}/status`);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ status: 'pending', progress: 0, phase: 'queued', findings_so_far: 0, seconds_left: null, reason: null, partial: false, coverage: null });

    const detail = await api.get(`/api/scans/${scan.body.id}`);
    expect(detail.body).toMatchObject({ id: scan.body.id, target_name: 'Support bot', vulnerabilities: [] });

    const scans = await api.get(`/api/scans?target_id=${created.body.id}&status=pending`);
    expect(scans.body.scans.map((s: any) => s.id)).toEqual([scan.body.id]);
    expect((await api.get('/api/scans?status=completed')).body.scans).toEqual([]);

    const cancelled = await api.post(`/api/scans/${scan.body.id}/cancel`);
    expect(cancelled.body).toEqual({ id: scan.body.id, status: 'cancelled' });
    expect((await api.get(`/api/scans/${scan.body.id}/status`)).body).toMatchObject({ status: 'cancelled', phase: 'done' });
    const again = await api.post(`/api/scans/${scan.body.id}/cancel`);
    expect(again.status).toBe(200);

    // people, not ids: who cancelled reads as the e-mail or the API key's name wherever a person reads it, the id beside it
    const byPerson = { reason: `cancelled by ${email}`, cancelled_by: expect.stringMatching(/^account:/), cancelled_by_name: email };
    expect((await api.get(`/api/scans/${scan.body.id}/status`)).body).toMatchObject({ status: 'cancelled', ...byPerson });
    expect((await api.get(`/api/scans/${scan.body.id}`)).body).toMatchObject(byPerson);
    expect((await api.get(`/api/scans?target_id=${created.body.id}`)).body.scans[0]).toMatchObject(byPerson);
    const report = await api.get(`/api/scans/${scan.body.id}/report?format=json`);
    expect(report.status).toBe(200);
    expect(JSON.parse(report.text).scan).toMatchObject(byPerson);
    expect((await api.get(`/api/scans/${scan.body.id}/score`)).body.detail).toContain(`cancelled by ${email}`);

    const key = (await api.post('/api/api-keys', { name: 'release-pipeline' })).body.key;
    const ci = client(svc.url, { apiKey: key });
    const byKey = (await ci.post('/api/scans', { target_id: created.body.id })).body.id;
    expect((await ci.post(`/api/scans/${byKey}/cancel`)).status).toBe(200);
    const gated = await ci.get(`/api/ci/scan/${byKey}`);
    expect(gated.status).toBe(424);
    expect(gated.body).toMatchObject({ reason: 'cancelled by API key release-pipeline', cancelled_by: expect.stringMatching(/^apikey:/), cancelled_by_name: 'API key release-pipeline' });
    expect((await api.get(`/api/scans/${byKey}/status`)).body.reason).toBe('cancelled by API key release-pipeline');
    expect(JSON.stringify((await api.get(`/api/scans?target_id=${created.body.id}`)).body)).not.toMatch(/"reason":"cancelled by (account|apikey):/);
  });

  it('updates and deletes targets; a deleted target keeps its scans', async () => {
    const { api } = await signUp(svc.url);
    const t = (await api.post('/api/targets', apiTarget)).body;
    const patched = await api.patch(`/api/targets/${t.id}`, { name: 'Renamed', max_requests_per_second: 3 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', max_requests_per_second: 3, has_api_key: true });
    const toBrowser = await api.patch(`/api/targets/${t.id}`, { scan_mode: 'browser', url: 'http://127.0.0.1:9/chat' });
    expect(toBrowser.body).toMatchObject({ scan_mode: 'browser', api_format: null });
    const scan = (await api.post('/api/scans', { target_id: t.id, profile: 'quick' })).body;
    expect((await api.delete(`/api/targets/${t.id}`)).status).toBe(204);
    expect((await api.get(`/api/targets/${t.id}`)).status).toBe(404);
    expect((await api.get('/api/targets')).body.targets).toEqual([]);
    expect((await api.get(`/api/scans/${scan.id}`)).body).toMatchObject({ target_name: 'Renamed' });
    expect((await api.post('/api/scans', { target_id: t.id })).status).toBe(404);
  });

  it('pages through lists with an opaque cursor, each item once', async () => {
    const { api } = await signUp(svc.url);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await api.post('/api/targets', { ...apiTarget, name: `t${i}` })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await api.get(`/api/targets?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.targets.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.targets.map((t: any) => t.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual(ids.sort());
    expect((await api.get('/api/targets?cursor=not-a-cursor')).status).toBe(400);
    expect((await api.get('/api/targets?limit=0')).status).toBe(400);
    expect((await api.get('/api/targets?limit=abc')).status).toBe(400);
  });

  it('answers bad input with problem+json naming the field, and changes nothing', async () => {
    const { api } = await signUp(svc.url);
    const expectProblem = (res: any, status: number, field?: string) => {
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status, type: expect.stringMatching(/^urn:gauntlet:problem:/), title: expect.any(String), detail: expect.any(String) });
      expect(res.text).not.toMatch(/at .*\.ts:\d+|node_modules|stack/);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      if (field) expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    };
    expectProblem(await api.post('/api/targets', { ...apiTarget, surprise: 1 }), 400, 'surprise');
    expectProblem(await api.post('/api/targets', { ...apiTarget, scan_mode: 'carrier-pigeon' }), 400, 'scan_mode');
    expectProblem(await api.post('/api/targets', { ...apiTarget, url: 'not a url' }), 400, 'url');
    expectProblem(await api.post('/api/targets', { ...apiTarget, url: 'ftp://example.com/x' }), 400, 'url');
    expectProblem(await api.post('/api/targets', { name: 'x', url: 'https://example.com', scan_mode: 'api' }), 400, 'api_format');
    expectProblem(await api.post('/api/targets', { ...apiTarget, name: 'x'.repeat(201) }), 400, 'name');
    expectProblem(await api.post('/api/targets', { ...apiTarget, browser: { input_selector: 5 } }), 400, 'browser.input_selector');
    expectProblem(await api.post('/api/targets', { ...apiTarget, api_format: 'http' }), 400, 'http');
    expectProblem(await api.raw('POST', '/api/targets', '{"name": '), 400);
    expectProblem(await api.raw('POST', '/api/targets', 'x'.repeat(2 * 1024 * 1024)), 413);
    expectProblem(await api.post('/api/scans', { target_id: 'nope' }), 400, 'target_id');
    expectProblem(await api.post('/api/scans', { target_id: '6f1c1d2e-8a7b-4c3d-9e8f-0a1b2c3d4e5f' }), 404);
    expectProblem(await api.get('/api/scans/6f1c1d2e-8a7b-4c3d-9e8f-0a1b2c3d4e5f/status'), 404);
    expectProblem(await api.get('/api/no-such-route'), 404);
    expect((await api.get('/api/targets')).body.targets).toEqual([]);
  });

  it('needs credentials everywhere but health and docs, and keeps accounts apart', async () => {
    const anon = client(svc.url);
    for (const [m, p] of [['GET', '/api/targets'], ['POST', '/api/scans'], ['GET', '/api/account'], ['POST', '/api/api-keys']] as const) {
      const res = await anon.raw(m, p, m === 'POST' ? {} : undefined);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expect((await client(svc.url, { token: 'not.a.jwt' }).get('/api/targets')).status).toBe(401);
    expect((await client(svc.url, { apiKey: 'gk_0123456789_' + 'a'.repeat(43) }).get('/api/targets')).status).toBe(401);
    expect((await anon.get('/healthz')).status).toBe(200);
    expect((await anon.get('/api/openapi.json')).status).toBe(200);

    const a = await signUp(svc.url);
    const b = await signUp(svc.url);
    const t = (await a.api.post('/api/targets', apiTarget)).body;
    const s = (await a.api.post('/api/scans', { target_id: t.id })).body;
    expect((await b.api.get(`/api/targets/${t.id}`)).status).toBe(404);
    expect((await b.api.patch(`/api/targets/${t.id}`, { name: 'mine now' })).status).toBe(404);
    expect((await b.api.delete(`/api/targets/${t.id}`)).status).toBe(404);
    expect((await b.api.get(`/api/scans/${s.id}`)).status).toBe(404);
    expect((await b.api.get(`/api/scans/${s.id}/status`)).status).toBe(404);
    expect((await b.api.post(`/api/scans/${s.id}/cancel`)).status).toBe(404);
    expect((await b.api.post('/api/scans', { target_id: t.id })).status).toBe(404);
    expect((await b.api.get('/api/targets')).body.targets).toEqual([]);
    expect((await b.api.get('/api/scans')).body.scans).toEqual([]);
  });

  it('registers each email once and refuses wrong passwords alike for unknown emails', async () => {
    const anon = client(svc.url);
    const email = 'twice@example.com';
    expect((await anon.post('/api/auth/register', { email, password: 'long-enough-pass' })).status).toBe(201);
    expect((await anon.post('/api/auth/register', { email: 'TWICE@example.com', password: 'long-enough-pass' })).status).toBe(409);
    expect((await anon.post('/api/auth/register', { email: 'short@example.com', password: 'short' })).status).toBe(400);
    const wrong = await anon.post('/api/auth/login', { email, password: 'wrong-password-x' });
    const unknown = await anon.post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong-password-x' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe(unknown.body.detail);
    const ok = await anon.post('/api/auth/login', { email, password: 'long-enough-pass' });
    expect(ok.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, access_token: expect.any(String) });
  });

  it('issues API keys shown once, usable at once, revocable, and not able to mint more keys', async () => {
    const { api } = await signUp(svc.url);
    const issued = await api.post('/api/api-keys', { name: 'ci' });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ name: 'ci', prefix: expect.any(String), key: expect.stringMatching(/^gk_/) });
    const listed = await api.get('/api/api-keys');
    expect(listed.body.api_keys).toEqual([{ id: issued.body.id, name: 'ci', prefix: issued.body.prefix, created_at: issued.body.created_at }]);
    expect(listed.text).not.toContain(issued.body.key);

    const byKey = client(svc.url, { apiKey: issued.body.key });
    expect((await byKey.get('/api/targets')).status).toBe(200);
    expect((await byKey.post('/api/targets', apiTarget)).status).toBe(201);
    expect((await byKey.post('/api/api-keys', { name: 'escalate' })).status).toBe(403);

    expect((await api.delete(`/api/api-keys/${issued.body.id}`)).status).toBe(204);
    expect((await byKey.get('/api/targets')).status).toBe(401);
    expect((await api.get('/api/api-keys')).body.api_keys).toEqual([]);
  });

  it('lets the administrator change plans, and only the administrator', async () => {
    const user = await signUp(svc.url);
    expect((await user.api.put(`/api/admin/accounts/${user.id}/plan`, { plan: 'pro' })).status).toBe(403);
    const login = await client(svc.url).post('/api/auth/login', { email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD });
    const admin = client(svc.url, { token: login.body.access_token });
    const changed = await admin.put(`/api/admin/accounts/${user.id}/plan`, { plan: 'pro' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ id: user.id, email: user.email, plan: 'pro' });
    expect((await user.api.get('/api/account')).body).toMatchObject({ plan: 'pro', role: 'member' });
    expect((await admin.put(`/api/admin/accounts/${user.id}/plan`, { plan: 'platinum' })).status).toBe(400);
    expect((await admin.put('/api/admin/accounts/6f1c1d2e-8a7b-4c3d-9e8f-0a1b2c3d4e5f/plan', { plan: 'pro' })).status).toBe(404);
  });

  it('enforces the monthly scan quota of the plan with 429 and Retry-After', async () => {
    const { api } = await signUp(svc.url);
    const t = (await api.post('/api/targets', apiTarget)).body;
    // counted in the log, not in a read model: five at once, and exactly three pass
    const burst = await Promise.all(Array.from({ length: 5 }, () => api.post('/api/scans', { target_id: t.id })));
    expect(burst.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429]);
    const over = await api.post('/api/scans', { target_id: t.id });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.body).toMatchObject({ plan: 'free', quota: 3, used: 3 });
    expect((await api.get('/api/scans')).body.scans).toHaveLength(3);
    // a target it may not scan is not found, quota spent or not, and spends nothing
    const other = await signUp(svc.url);
    const theirs = (await other.api.post('/api/targets', apiTarget)).body;
    expect((await api.post('/api/scans', { target_id: theirs.id })).status).toBe(404);
    const mine = (await other.api.post('/api/targets', apiTarget)).body;
    expect((await other.api.post('/api/scans', { target_id: t.id })).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await other.api.post('/api/scans', { target_id: mine.id })).status).toBe(201);
  });

  it('lets a burst of parallel scan requests within the plan all through (a CI matrix on one account)', async () => {
    const user = await signUp(svc.url);
    const login = await client(svc.url).post('/api/auth/login', { email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD });
    expect((await client(svc.url, { token: login.body.access_token }).put(`/api/admin/accounts/${user.id}/plan`, { plan: 'pro' })).status).toBe(200);
    const t = (await user.api.post('/api/targets', apiTarget)).body;
    // each spends one scan in the same quota stream (the conflicts a networked store sees are in platform/write-path.spec.ts)
    const burst = await Promise.all(Array.from({ length: 16 }, () => user.api.post('/api/scans', { target_id: t.id })));
    expect(burst.map((r) => r.status)).toEqual(Array(16).fill(201));
  });

  it('never writes a target API key or a password in clear to the log', async () => {
    const { api } = await signUp(svc.url, 'clear@example.com', 'my-password-in-clear');
    await api.post('/api/targets', apiTarget);
    const all = JSON.stringify(await svc.runtime.infra.events.readAll({ maxCount: 100000 }), (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(all).toContain('TargetRegistered');
    expect(all).not.toContain('SUPERSECRET');
    expect(all).not.toContain('my-password-in-clear');
  });

  it('serves the OpenAPI document with every route, health, readiness and metrics', async () => {
    const anon = client(svc.url);
    const doc = (await anon.get('/api/openapi.json')).body;
    expect(doc.openapi).toMatch(/^3\./);
    const paths = [
      '/api/auth/register', '/api/auth/login', '/api/account', '/api/api-keys', '/api/api-keys/{id}', '/api/admin/accounts/{id}/plan',
      '/api/targets', '/api/targets/{id}', '/api/targets/{id}/check', '/api/scans', '/api/scans/{id}', '/api/scans/{id}/status', '/api/scans/{id}/cancel',
      '/api/scans/{id}/score', '/api/scans/{id}/compliance-evidence', '/api/scans/{id}/report', '/api/scans/{id}/events',
      '/api/scans/{id}/diff', '/api/scans/{id}/vulnerabilities/{vulnerability_id}/triage',
      '/api/ci/scan', '/api/ci/scan/{scan_id}', '/api/ci/deploy', '/api/webhooks', '/api/webhooks/{id}', '/api/webhooks/{id}/rotate-secret', '/api/webhooks/{id}/test',
      '/api/webhooks/{id}/deliveries', '/api/webhooks/{id}/deliveries/{delivery_id}/redeliver',
      '/api/agent-monitor/target/{id}/webhook', '/api/agent-monitor/target/{id}/events', '/api/agent-monitor/target/{id}/alerts',
      '/api/schedules', '/api/schedules/{id}', '/api/fleet', '/api/fleet/{target_id}/trend',
    ];
    expect(Object.keys(doc.paths).sort()).toEqual(paths.sort());
    // the connection check and what a target view says about its URL, from the decorators
    expect(doc.paths['/api/targets/{id}/check'].post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/TargetCheckView');
    expect(Object.keys(doc.components.schemas.TargetCheckView.properties)).toEqual(expect.arrayContaining(['ok', 'endpoint', 'status', 'latency_ms', 'diagnosis', 'hint', 'screenshot']));
    expect(doc.components.schemas.TargetView.properties).toHaveProperty('endpoint');
    expect(doc.components.schemas.RegisterTargetBody.properties.api_format.enum).toEqual(['openai', 'anthropic', 'http', 'azure-openai', 'ollama', 'gemini', 'openai-responses']);
    // each format's short label beside its value, from the format registry, for the dashboard's forms
    for (const schema of ['RegisterTargetBody', 'UpdateTargetBody', 'TargetView']) {
      expect(doc.components.schemas[schema].properties.api_format['x-enum-descriptions']).toEqual([
        'OpenAI chat completions', 'Anthropic Messages', 'custom HTTP JSON', 'Azure OpenAI', 'Ollama', 'Gemini generateContent', 'OpenAI Responses',
      ]);
    }
    expect(doc.components.schemas.ScanStatusView.properties).toHaveProperty('reason');
    expect(doc.components.securitySchemes).toHaveProperty('bearer');
    expect(doc.components.securitySchemes).toHaveProperty('api_key');
    expect((await anon.get('/api/docs')).status).toBe(200);
    const ready = await anon.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    const metrics = await anon.get('/metrics');
    expect(metrics.text).toContain('gauntlet_http_request_duration_seconds');
    expect(metrics.text).toContain('gauntlet_events_appended_total');
  });

  it('rebuilds every read model from the log to identical documents', async () => {
    const { api } = await signUp(svc.url);
    const t = (await api.post('/api/targets', apiTarget)).body;
    await api.patch(`/api/targets/${t.id}`, { name: 'before rebuild' });
    await api.post(`/api/scans/${(await api.post('/api/scans', { target_id: t.id })).body.id}/cancel`);
    const docs = svc.runtime.infra.documents;
    const snapshot = async () => {
      const out: Record<string, unknown> = {};
      for (const c of ['accounts', 'api_keys', 'targets', 'scans', 'vulnerabilities']) out[c] = await docs.collection(c).find({}, { sort: { field: '_id', direction: 'asc' }, limit: 100000 });
      return out;
    };
    const before = await snapshot();
    const { events } = await svc.runtime.projector.rebuild();
    expect(events).toBeGreaterThan(5);
    expect(await snapshot()).toEqual(before);
    await svc.runtime.projector.start();
    expect((await api.get(`/api/targets/${t.id}`)).body.name).toBe('before rebuild');
  });
});

describe('rate limit', () => {
  it('answers the 121st request in a minute from one IP with 429, Retry-After and X-RateLimit headers, across all routes', async () => {
    const svc = await startService({}, ['api', 'projector']);
    try {
      await insideOneClockWindow(60_000, 40_000);
      const anon = client(svc.url);
      // one budget for the whole api: spreading requests over routes does not multiply it
      const routes = ['/api/targets', '/api/scans', '/api/webhooks', '/api/account'];
      let last: any;
      for (let i = 0; i < 120; i++) {
        last = await anon.get(routes[i % routes.length]);
        expect(last.status).toBe(401);
      }
      expect(last.headers.get('x-ratelimit-limit')).toBe('120');
      expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
      const limited = await anon.get('/api/scans');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('content-type')).toMatch(/problem\+json/);
    } finally {
      await svc.stop();
      removeDir(svc.dataDir);
    }
  }, 120_000);
});
