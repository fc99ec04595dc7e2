import { MAX_HIT_BYTES, OutOfBandHit, streams } from '@gauntlet/domain';
import { callbackKey, mintToken } from '@gauntlet/scanner';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { FetchingAgent, startFetchingAgent } from '../support/fetching-agent';
import { eventually } from '../support/receiver';
import { removeDir, RunningService, signUp, startService } from '../support/service';

jest.setTimeout(120_000);

/**
 * The callback listener over HTTP on the whole service: a planted token answers 200 to anyone (no
 * credentials), anything else 404; a request is kept to 4 KiB and recorded on its scan's stream,
 * after the scan ended too (marked so, the score untouched); each token and source is rate-limited.
 */
describe('callback listener (/oob)', () => {
  let svc: RunningService;
  let bot: FetchingAgent;
  let scanId: string;
  let key: Buffer;
  let score: number;
  let api: Awaited<ReturnType<typeof signUp>>['api'];

  const hitsOf = async (id: string) =>
    (await svc.runtime.infra.events.readStream(streams.scan(id))).filter((e) => e.type === 'OutOfBandHit').map((e) => e.data as { hit: OutOfBandHit; after_scan: boolean });

  beforeAll(async () => {
    bot = await startFetchingAgent({ fetches: false, follows: false, customer: 'Dana Whitfield' });
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000', CALLBACK_BASE_URL: 'https://callbacks.example.net/oob', CALLBACK_DOMAIN: 'oob.gauntlet.test', CALLBACK_DNS_PORT: '0' });
    key = callbackKey(svc.runtime.config.secretsKey);
    ({ api } = await signUp(svc.url));
    const target = (await api.post('/api/targets', { name: 'bot', url: `${bot.url}/v1`, scan_mode: 'api', api_format: 'openai', model: 'bot' })).body;
    scanId = (await api.post('/api/scans', { target_id: target.id, profile: 'quick' })).body.id;
    const done = await eventually(async () => {
      const s = (await api.get(`/api/scans/${scanId}`)).body;
      return ['completed', 'completed_partial', 'failed'].includes(s.status) ? s : undefined;
    }, 100_000, 100);
    expect(done.status).toBe('completed');
    score = done.security_score;
  });
  afterAll(async () => {
    await svc?.stop();
    await bot?.close();
    if (svc) removeDir(svc.dataDir);
  });

  it('answers a planted address without credentials and records the hit on the scan, after it ended, leaving its score alone', async () => {
    const token = mintToken(key, { scanId, attemptId: 'attempt-1', stage: 'steered' });
    const res = await fetch(`${svc.url}/oob/${token}/more/path?customer=Dana%20Whitfield`, { headers: { 'user-agent': 'agent-test/1.0' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const hits = await hitsOf(scanId);
    expect(hits).toEqual([
      { scan_id: scanId, after_scan: true, hit: expect.objectContaining({ scan_id: scanId, attempt_id: 'attempt-1', token, method: 'GET', path: '/more/path', query: 'customer=Dana%20Whitfield', headers: expect.objectContaining({ 'user-agent': 'agent-test/1.0' }) }) },
    ]);
    const head = await fetch(`${svc.url}/oob/${token}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect((await hitsOf(scanId)).length).toBe(2);
    // the recorded score is the scan's: a late hit never rewrites it
    const ended = await svc.runtime.infra.events.readStream(streams.scan(scanId));
    expect((ended.find((e) => e.type === 'ScanCompleted')!.data as { score: { overall_score: number } }).score.overall_score).toBe(score);
    // the scan's detail shows it as a late hit, in no finding, its score as it was
    const detail = await eventually(async () => {
      const d = (await api.get(`/api/scans/${scanId}`)).body;
      return d.callback_hits.after_scan >= 2 ? d : undefined;
    }, 10_000, 50);
    expect(detail).toMatchObject({ status: 'completed', security_score: score, callback_hits: { total: 2, after_scan: 2 } });
    expect(detail.callback_hits.late[0]).toMatchObject({ attempt_id: 'attempt-1', method: 'GET', path: '/more/path', query: 'customer=Dana%20Whitfield' });
    expect(detail.vulnerabilities.some((v: any) => v.evidence.proof?.matched?.kind === 'out_of_band')).toBe(false);
  });

  it('serves the poisoned page on a planted fetch address: its second address is the scan\'s own, under CALLBACK_BASE_URL', async () => {
    const token = mintToken(key, { scanId, attemptId: 'attempt-2', stage: 'fetch' });
    const page = await (await fetch(`${svc.url}/oob/${token}`)).text();
    const second = /https:\/\/callbacks\.example\.net\/oob\/([A-Za-z0-9_-]+)\?customer=/.exec(page);
    expect(second).not.toBeNull();
    expect(second![1]).toBe(mintToken(key, { scanId, attemptId: 'attempt-2', stage: 'steered' }));
  });

  it('hears a name under CALLBACK_DOMAIN asked for over HTTP (its Host, any path, /api too), and leaves other hosts to the service', async () => {
    const labels = mintToken(key, { scanId, attemptId: 'attempt-9', stage: 'domain' }, 'host');
    const { port } = new URL(svc.url);
    const get = (host: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject).end();
      });
    const before = (await hitsOf(scanId)).length;
    expect(await get(`${labels.toUpperCase()}.oob.gauntlet.test:${port}`, '/api/scans?x=1')).toBe(200);
    const hits = await hitsOf(scanId);
    expect(hits.slice(before)).toEqual([{ scan_id: scanId, after_scan: true, hit: expect.objectContaining({ attempt_id: 'attempt-9', method: 'GET', host: `${labels}.oob.gauntlet.test`, path: '/api/scans', query: 'x=1' }) }]);
    // a name of the domain no scan planted: 404, nothing recorded; the service's own host: the api as ever
    expect(await get('www.oob.gauntlet.test', '/healthz')).toBe(404);
    expect(await get(`127.0.0.1:${port}`, '/healthz')).toBe(200);
    expect((await hitsOf(scanId)).length).toBe(hits.length);
  });

  it('answers 404 to anything else, and records nothing', async () => {
    const before = (await hitsOf(scanId)).length;
    const token = mintToken(key, { scanId, attemptId: 'attempt-3', stage: 'steered' });
    const forged = mintToken(callbackKey(randomBytes(32)), { scanId, attemptId: 'attempt-3', stage: 'steered' });
    const altered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const path of ['/oob/', '/oob/nothing', `/oob/${forged}`, `/oob/${altered}`, `/oob/${token.slice(0, 30)}`, `/oobx/${token}`]) {
      expect([path, (await fetch(`${svc.url}${path}`)).status]).toEqual([path, 404]);
    }
    // a token of a scan that does not exist proves nothing either (it is never recorded)
    const ghost = mintToken(key, { scanId: '00000000-0000-4000-8000-000000000000', attemptId: 'a', stage: 'steered' });
    expect((await fetch(`${svc.url}/oob/${ghost}`)).status).toBe(200);
    expect(await hitsOf('00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect((await hitsOf(scanId)).length).toBe(before);
  });

  it('keeps at most 4 KiB of a request and never serves back what was sent', async () => {
    const token = mintToken(key, { scanId, attemptId: 'attempt-4', stage: 'steered' });
    const big = `secret-${'x'.repeat(100_000)}`;
    const res = await fetch(`${svc.url}/oob/${token}?q=${'y'.repeat(3_000)}`, { method: 'POST', body: big, headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('secret-');
    const hit = (await hitsOf(scanId)).find((h) => h.hit.attempt_id === 'attempt-4')!.hit;
    const kept = [hit.path, hit.query ?? '', hit.body ?? '', ...Object.entries(hit.headers ?? {}).flat()].join('');
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_HIT_BYTES);
    expect(hit.body?.startsWith('secret-')).toBe(true);
  });

  it('limits each token: a burst is answered 429 past the limit and recorded a bounded number of times', async () => {
    const token = mintToken(key, { scanId, attemptId: 'attempt-5', stage: 'steered' });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${svc.url}/oob/${token}`);
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(40);
    expect(statuses).toContain(429);
    const recorded = (await hitsOf(scanId)).filter((h) => h.hit.attempt_id === 'attempt-5').length;
    expect(recorded).toBeGreaterThan(0);
    expect(recorded).toBeLessThanOrEqual(20);
  });
});
