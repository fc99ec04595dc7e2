import { request as httpRequest } from 'node:http';
import { client, removeDir, RunningService, signUp, startService } from '../support/service';

/**
 * Hostile requests (depth, length, encodings, text, credentials) answer 4xx problem+json and
 * change nothing. The routes with a body are read from the OpenAPI document, so a route added
 * later is covered without a line here.
 */
describe('hostile input answers 4xx problem+json and changes nothing', () => {
  let svc: RunningService;
  let user: Awaited<ReturnType<typeof signUp>>;
  const someId = '6f1c1d2e-8a7b-4c3d-9e8f-0a1b2c3d4e5f';
  const target = { name: 'Support bot', url: 'http://127.0.0.1:9/v1/chat/completions', scan_mode: 'api', api_format: 'openai' };

  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000' }, ['api', 'projector']);
    user = await signUp(svc.url);
  });
  afterAll(async () => {
    await svc.stop();
    removeDir(svc.dataDir);
  });

  const expectProblem = (res: { status: number; headers: Headers; body: any; text: string }, status: number, field?: string) => {
    expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { status, type: expect.stringMatching(/^urn:gauntlet:problem:/), title: expect.any(String), detail: expect.any(String) } });
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.text).not.toMatch(/FST_|at .*\.[jt]s:\d+|node_modules|RangeError/);
    if (field) expect(res.body.errors.map((e: any) => e.field)).toContain(field);
  };
  /** a body sent as these exact bytes */
  const bytes = async (path: string, body: Buffer) => {
    const res = await fetch(svc.url + path, { method: 'POST', body: new Uint8Array(body), headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' } });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
  };
  const nothingChanged = async () => {
    expect((await user.api.get('/api/targets')).body.targets).toEqual([]);
    expect((await user.api.get('/api/webhooks')).body.webhooks).toEqual([]);
    expect((await user.api.get('/api/api-keys')).body.api_keys).toEqual([]);
  };

  it('refuses a body nested thousands of levels deep on every route a body can be sent to, naming the field', async () => {
    const doc = (await client(svc.url).get('/api/openapi.json')).body;
    const withBody = Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).filter((method) => method !== 'get').map((method) => [method.toUpperCase(), path.replace(/\{[^}]+\}/g, someId)] as const),
    );
    expect(withBody.length).toBeGreaterThanOrEqual(18);
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    for (const [method, path] of withBody) {
      const res = await user.api.raw(method, path, `{"events":[{"tool":{"arguments":${deep}}}]}`);
      expectProblem(res, 400, `events.0.tool.arguments.${Array(28).fill(0).join('.')}`);
      expectProblem(await user.api.raw(method, path, deep), 400);
      expectProblem(await user.api.raw(method, path, '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)), 400);
    }
    await nothingChanged();
  });

  it('answers the framework refusals as problem+json: long and badly encoded addresses, media types, sizes, bad JSON, unknown routes', async () => {
    expectProblem(await user.api.get(`/api/scans/${'a'.repeat(5000)}`), 414);
    expectProblem(await user.api.get(`/api/targets/${'a'.repeat(5000)}/`), 414);
    expectProblem(await user.api.get('/api/scans/%ff%fe/status'), 400);
    expectProblem(await user.api.get('/api/scans/%E0%A4%A'), 400);
    expectProblem(await user.api.raw('POST', '/api/targets', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415);
    expectProblem(await user.api.raw('POST', '/api/targets', JSON.stringify(target), { 'content-type': 'text/plain' }), 415);
    expectProblem(await user.api.raw('POST', '/api/targets', JSON.stringify(target), { 'content-type': 'application/json; charset=iso-8859-1' }), 415);
    expectProblem(await user.api.raw('POST', '/api/targets', JSON.stringify(target), { 'content-type': 'application/json; charset=utf-16' }), 415);
    expectProblem(await bytes('/api/targets', Buffer.from('{"name":"\xff\xfe"}', 'latin1')), 400);
    expectProblem(await user.api.raw('POST', '/api/targets', '{"__proto__":{"admin":true}}'), 400);
    expectProblem(await user.api.raw('POST', '/api/targets', '{"constructor":{"prototype":{"admin":true}}}'), 400);
    expectProblem(await user.api.raw('POST', '/api/targets', ''), 400);
    expectProblem(await user.api.raw('POST', '/api/targets', '{"name": '), 400);
    expectProblem(await user.api.raw('POST', '/api/targets', `"${'x'.repeat(1024 * 1024 + 10)}"`), 413);
    expectProblem(await user.api.get('/api/no-such-route'), 404);
    const wrongMethod = await user.api.raw('PATCH', '/api/scans');
    expectProblem(wrongMethod, 405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, POST');
    await nothingChanged();
  });

  it('answers headers too large with 431 problem+json', async () => {
    const { status, headers, text } = await new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
      const url = new URL('/api/targets', svc.url);
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${user.token}`, 'x-padding': 'a'.repeat(64 * 1024) }, maxHeaderSize: 64 * 1024 }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(431);
    expect(headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(text)).toMatchObject({ status: 431, type: 'urn:gauntlet:problem:headers-too-large' });
  });

  it('trims names and refuses NUL, unpaired surrogates, bidi controls and whitespace only', async () => {
    const bad: [string, string][] = [
      ['{"name":"bot\\u0000","url":"http://127.0.0.1:9/v1","scan_mode":"api","api_format":"openai"}', 'name'],
      ['{"name":"bot \\ud800","url":"http://127.0.0.1:9/v1","scan_mode":"api","api_format":"openai"}', 'name'],
      ['{"name":"\\udc00","url":"http://127.0.0.1:9/v1","scan_mode":"api","api_format":"openai"}', 'name'],
      ['{"name":"invoice\\u202egpj.exe","url":"http://127.0.0.1:9/v1","scan_mode":"api","api_format":"openai"}', 'name'],
      ['{"name":"\\u2066bot\\u2069","url":"http://127.0.0.1:9/v1","scan_mode":"api","api_format":"openai"}', 'name'],
      ['{"name":" \\t\\n\\u3000 ","url":"http://127.0.0.1:9/v1","scan_mode":"api","api_format":"openai"}', 'name'],
      ['{"name":"bot","url":"http://127.0.0.1:9/v1","scan_mode":"api","api_format":"openai","canaries":["CANARY\\u0000X"]}', 'canaries'],
      ['{"name":"bot","url":"http://127.0.0.1:9/v1","scan_mode":"api","api_format":"openai","model":"gpt\\u202e"}', 'model'],
    ];
    for (const [body, field] of bad) expectProblem(await user.api.raw('POST', '/api/targets', body), 400, field);
    expectProblem(await user.api.post('/api/api-keys', { name: '   ' }), 400, 'name');
    expectProblem(await user.api.post('/api/api-keys', { name: 'ci\u0007' }), 400, 'name');
    await nothingChanged();

    const created = await user.api.post('/api/targets', { ...target, name: '  Zoë’s bot 🤖 ' });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Zoë’s bot 🤖');
    expectProblem(await user.api.patch(`/api/targets/${created.body.id}`, { name: '\u202e' }), 400, 'name');
    expect((await user.api.get(`/api/targets/${created.body.id}`)).body.name).toBe('Zoë’s bot 🤖');
    // null clears only what can be cleared; a name cannot be
    expectProblem(await user.api.patch(`/api/targets/${created.body.id}`, { name: null }), 400, 'name');
    expect((await user.api.patch(`/api/targets/${created.body.id}`, { model: 'm-1', max_requests_per_second: 5 })).body).toMatchObject({ model: 'm-1', max_requests_per_second: 5 });
    expect((await user.api.patch(`/api/targets/${created.body.id}`, { model: null, max_requests_per_second: null })).body).toMatchObject({ name: 'Zoë’s bot 🤖', model: null, max_requests_per_second: null });
    expect((await user.api.delete(`/api/targets/${created.body.id}`)).status).toBe(204);
  });
});
