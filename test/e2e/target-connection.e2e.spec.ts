import { readdirSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { RoleProcess, startRole } from '../support/processes';
import { eventually, startReceiver } from '../support/receiver';
import { removeDir, signUp } from '../support/service';

/**
 * Connecting a target the way a new user does: base URLs, the connection check on good and
 * broken targets, and a scan that fails saying why, in the status view and in every webhook
 * format. The service runs as its own process at debug level so its whole log can be read for
 * the secrets it was given.
 */
describe('connecting a target: base URLs, the connection check, why a scan failed', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-connect-'));
  const port = 29500 + Math.floor(Math.random() * 1500);
  const base = `http://127.0.0.1:${port}`;
  const LAB_KEY = 'sk-lab-connect-0123456789';
  const GATEWAY_SECRET = 'gw-secret-value-5f4e3d2c1b';
  let lab: RunningLab;
  let page: Server;
  let pageUrl: string;
  let service: RoleProcess;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let webhookSecrets: string[] = [];

  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable', apiKey: LAB_KEY });
    // a web page that is no API and no chat: what a wrong URL often lands on
    page = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Acme</title></head><body><h1>Welcome to Acme</h1><p>No chat here.</p></body></html>');
    });
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    // every delivery is signed with its webhook's own secret: the receiver checks against whichever matches
    receiver = await startReceiver(() => webhookSecrets[0] ?? null);
    service = await startRole(
      'all',
      { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'debug', WEBHOOK_RETRY_DELAYS_MS: '100,100,100' },
      'gauntlet api listening',
    );
  }, 60_000);
  afterAll(async () => {
    await service?.kill();
    await Promise.all([lab.close(), new Promise((r) => page.close(r)), receiver.close()]);
    removeDir(dataDir);
  });

  const labTarget = (url: string, extra: Record<string, unknown> = {}) => ({
    name: 'Penny', url, scan_mode: 'api', api_format: 'openai', model: 'penny-lab', api_key: LAB_KEY, headers: { 'X-Gateway-Token': GATEWAY_SECRET }, ...extra,
  });

  it('registers the base URL an SDK takes, shows the endpoint it calls, and checks it at once', async () => {
    const { api } = await signUp(base);
    const created = await api.post('/api/targets', labTarget(`${lab.url}/v1`, { check: true }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: `${lab.url}/v1`, endpoint: `${lab.url}/v1/chat/completions`, has_api_key: true, header_names: ['X-Gateway-Token'] });
    expect(created.body.check).toMatchObject({ ok: true, endpoint: `${lab.url}/v1/chat/completions`, status: 200, hint: null, screenshot: null });
    expect(created.body.check.latency_ms).toEqual(expect.any(Number));
    expect(created.body.check.diagnosis).toMatch(/answered as OpenAI chat completions/);
    expect(created.body.check.answer).toEqual(expect.any(String));
    expect(created.text).not.toContain(GATEWAY_SECRET);
    expect(created.text).not.toContain(LAB_KEY);

    const again = await api.post(`/api/targets/${created.body.id}/check`);
    expect(again.status).toBe(200);
    expect(again.body.ok).toBe(true);
    const got = await api.get(`/api/targets/${created.body.id}`);
    expect(got.body).not.toHaveProperty('headers');
    expect(got.body).not.toHaveProperty('api_key');
  });

  it('refuses settings that cannot make a request, as problem details, and records nothing', async () => {
    const { api } = await signUp(base);
    const cases: Array<[Record<string, unknown>, string]> = [
      [labTarget(`${lab.url}/v1`, { headers: { Host: 'elsewhere.example' } }), 'headers'],
      [labTarget(`${lab.url}/v1`, { headers: { 'X-A': 'one\r\nX-B: two' } }), 'headers'],
      [labTarget(lab.url, { api_format: 'ollama', model: undefined }), 'model'],
      [labTarget(lab.url, { api_format: 'gemini', model: undefined }), 'model'],
      [labTarget(lab.url, { api_format: 'bedrock' }), 'api_format'],
      [labTarget(lab.url, { stream: 'yes' }), 'stream'],
      [{ name: 'page', url: `${lab.url}/`, scan_mode: 'browser', headers: { 'X-A': '1' } }, 'headers'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post('/api/targets', body);
      expect([field, res.status, res.headers.get('content-type')]).toEqual([field, 400, expect.stringMatching(/^application\/problem\+json/)]);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(res.text).not.toContain(GATEWAY_SECRET);
    }
    expect((await api.get('/api/targets')).body.targets).toEqual([]);
  });

  it('says what to change on a wrong path, a refused key, a web page and nothing listening', async () => {
    const { api } = await signUp(base);
    const check = async (body: Record<string, unknown>) => {
      const t = await api.post('/api/targets', body);
      expect(t.status).toBe(201);
      const res = await api.post(`/api/targets/${t.body.id}/check`);
      expect(res.status).toBe(200);
      return res.body;
    };

    const wrongPath = await check(labTarget(`${lab.url}/api/v2`));
    expect(wrongPath).toMatchObject({ ok: false, status: 404, endpoint: `${lab.url}/api/v2/chat/completions` });
    expect(wrongPath.diagnosis).toMatch(/HTTP 404/);
    // the check found the endpoint that answers and names it
    expect(wrongPath.hint).toContain(`${lab.url}/v1/chat/completions answers`);

    const badKey = await check(labTarget(`${lab.url}/v1`, { api_key: 'sk-wrong-key-000000' }));
    expect(badKey).toMatchObject({ ok: false, status: 401 });
    expect(badKey.diagnosis).toMatch(/refused the credentials/);
    expect(badKey.hint).toMatch(/api_key/);

    const webPage = await check(labTarget(pageUrl));
    expect(webPage).toMatchObject({ ok: false, status: 200 });
    expect(webPage.diagnosis).toMatch(/web page \(HTML\)/);
    expect(webPage.hint).toMatch(/scan_mode browser/);

    const nothing = await check(labTarget('http://127.0.0.1:9/v1'));
    expect(nothing).toMatchObject({ ok: false, status: null });
    expect(nothing.diagnosis).toMatch(/ECONNREFUSED/);

    const wrongFormat = await check(labTarget(`${lab.url}/v1`, { api_format: 'openai-responses' }));
    expect(wrongFormat.ok).toBe(false);
  });

  it("a scan of a target that never answers fails with why, in the status view and in every webhook format", async () => {
    const { api } = await signUp(base);
    const formats = ['json', 'ocsf', 'cef', 'syslog'];
    webhookSecrets = [];
    for (const format_type of formats) {
      const hook = await api.post('/api/webhooks', { url: `${receiver.url}/${format_type}`, event_types: ['scan.failed'], format_type });
      expect(hook.status).toBe(201);
      webhookSecrets.push(hook.body.secret);
    }
    const target = (await api.post('/api/targets', labTarget(`${lab.url}/api/v2`))).body;
    const scan = (await api.post('/api/scans', { target_id: target.id, profile: 'quick' })).body;
    const status = await eventually(async () => {
      const s = (await api.get(`/api/scans/${scan.id}/status`)).body;
      return s.status === 'failed' ? s : undefined;
    }, 60_000, 100);
    expect(status.reason).toMatch(/did not answer the first message/);
    expect(status.reason).toMatch(/HTTP 404/);
    expect(status.reason).toMatch(/Check the path/);
    expect((await api.get(`/api/scans/${scan.id}`)).body.reason).toBe(status.reason);

    const deliveries = await eventually(() => {
      const got = formats.map((f) => receiver.deliveries.find((d) => d.path === `/${f}` && d.body.includes(scan.id)));
      return got.every(Boolean) ? got : undefined;
    }, 30_000, 100);
    const [json, ocsf, cef, syslog] = deliveries.map((d) => d!);
    expect(json.json.event).toBe('scan.failed');
    expect(json.json.data.reason).toBe(status.reason);
    expect(ocsf.json.status_detail).toBe(status.reason);
    // CEF and syslog escape what their syntax needs; the words are there
    expect(cef.body).toContain('did not answer the first message');
    expect(syslog.body).toContain('did not answer the first message');
    expect(syslog.body).toMatch(/reason="The target did not answer/);
    // its own waits (a scan's failure, four deliveries) are up to 90 s: jest's default 5 s failed it on a busy machine
  }, 120_000);

  it('never writes a target key or a custom header value to the log or the store in clear', async () => {
    const out = service.output();
    expect(out).toContain('target checked');
    expect(out).not.toContain(LAB_KEY);
    expect(out).not.toContain(GATEWAY_SECRET);
    for (const file of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, file));
      expect([file, bytes.includes(LAB_KEY)]).toEqual([file, false]);
      expect([file, bytes.includes(GATEWAY_SECRET)]).toEqual([file, false]);
    }
  });
});
