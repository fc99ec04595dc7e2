import { randomBytes } from 'node:crypto';
import { MAX_HIT_BYTES, OutOfBandHit } from '@gauntlet/domain';
import { CallbackListener, CallbackRequest } from './listener';
import { callbackKey, mintToken, verifyToken } from './token';

describe('the callback listener', () => {
  const key = callbackKey(randomBytes(32));
  const scanId = '0b7a3c1e-5d2f-4e8a-9c1b-2f3e4d5c6b7a';
  let recorded: OutOfBandHit[];
  let now: number;
  const listener = (limits = {}) => new CallbackListener({ key, baseUrl: 'https://cb.example.net/oob/', recorder: { record: async (h) => void recorded.push(h) }, now: () => new Date(now), limits });
  const request = (url: string, over: Partial<CallbackRequest> = {}): CallbackRequest => ({ method: 'GET', url, source: '198.51.100.7', headers: {}, body: null, ...over });
  beforeEach(() => {
    recorded = [];
    now = Date.parse('2026-11-27T07:00:00Z');
  });

  it('answers the planted fetch address with the poisoned page, whose second address is the same attempt\'s', async () => {
    const token = mintToken(key, { scanId, attemptId: 'a1', stage: 'fetch' });
    const answer = await listener().answer(request(`/${token}`));
    expect(answer.status).toBe(200);
    const second = /https:\/\/cb\.example\.net\/oob\/([A-Za-z0-9_-]+)\?customer=/.exec(String(answer.body));
    expect(verifyToken(key, second![1])).toEqual({ scanId, attemptId: 'a1', stage: 'steered' });
    expect(recorded).toEqual([{ scan_id: scanId, attempt_id: 'a1', token, address: token, method: 'GET', path: '', source: '198.51.100.7', at: '2026-11-27T07:00:00.000Z' }]);
  });

  it('answers a render address with an image, HEAD with no body, and other methods or paths 404 without recording', async () => {
    const token = mintToken(key, { scanId, attemptId: 'a2', stage: 'render' });
    expect((await listener().answer(request(`/${token}`))).headers['content-type']).toBe('image/gif');
    expect((await listener().answer(request(`/${token}`, { method: 'HEAD' }))).body).toBe('');
    expect((await listener().answer(request(`/${token}`, { method: 'DELETE' }))).status).toBe(404);
    expect((await listener().answer(request('/robots.txt'))).status).toBe(404);
    expect((await listener().answer(request(`/x${token}`))).status).toBe(404);
    expect(recorded).toHaveLength(2);
  });

  it('keeps path, query, a few headers and the body\'s start within MAX_HIT_BYTES, and never credentials', async () => {
    const token = mintToken(key, { scanId, attemptId: 'a3', stage: 'steered' });
    const headers = { 'user-agent': 'u'.repeat(1000), authorization: 'Bearer secret', cookie: 'sid=1', referer: 'https://chat.example/' };
    await listener().answer(request(`/${token}/${'p'.repeat(3000)}?${'q'.repeat(3000)}`, { method: 'POST', headers, body: Buffer.from('b'.repeat(4096)) }));
    const [hit] = recorded;
    const kept = [hit.path, hit.query ?? '', hit.body ?? '', ...Object.entries(hit.headers ?? {}).flat()].join('');
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(MAX_HIT_BYTES);
    expect(Object.keys(hit.headers ?? {})).not.toContain('authorization');
    expect(Object.keys(hit.headers ?? {})).not.toContain('cookie');
    expect(hit.path.startsWith('/ppp')).toBe(true);
  });

  it('counts MAX_HIT_BYTES as the event stores them: a body of control characters, escaped six bytes each, is cut to fit', async () => {
    const token = mintToken(key, { scanId, attemptId: 'a3', stage: 'steered' });
    await listener().answer(request(`/${token}/${'\u0001'.repeat(2000)}`, { method: 'POST', headers: { 'user-agent': '"\\'.repeat(200) }, body: Buffer.alloc(4096) }));
    const [hit] = recorded;
    const kept = [hit.path, hit.query ?? '', hit.body ?? '', ...Object.entries(hit.headers ?? {}).flat()];
    const stored = kept.reduce((n, text) => n + Buffer.byteLength(JSON.stringify(text)) - 2, 0);
    expect(stored).toBeLessThanOrEqual(MAX_HIT_BYTES);
    expect(hit.body?.length).toBeGreaterThan(0);
    expect(hit.body).toMatch(/^\0+$/);
  });

  it('limits each token and each source per window, then answers again when the window has passed', async () => {
    const l = listener({ perToken: 3, perSource: 5, windowMs: 60_000 });
    const t1 = mintToken(key, { scanId, attemptId: 'a4', stage: 'steered' });
    const t2 = mintToken(key, { scanId, attemptId: 'a5', stage: 'steered' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await l.answer(request(`/${t1}`))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // the same source on another token: its budget (5, the refused one counted) is spent after one more
    const more = [];
    for (const source of ['198.51.100.7', '198.51.100.7', '203.0.113.1']) more.push((await l.answer(request(`/${t2}`, { source }))).status);
    expect(more).toEqual([200, 429, 200]);
    now += 61_000;
    expect((await l.answer(request(`/${t1}`))).status).toBe(200);
    expect(recorded).toHaveLength(6);
  });

  it('answers even when the hit cannot be recorded, and says so', async () => {
    const errors: unknown[] = [];
    const l = new CallbackListener({ key, baseUrl: 'https://cb.example.net/oob', recorder: { record: async () => Promise.reject(new Error('store down')) }, now: () => new Date(now), onError: (e) => errors.push(e) });
    expect((await l.answer(request(`/${mintToken(key, { scanId, attemptId: 'a6', stage: 'steered' })}`))).status).toBe(200);
    expect(errors).toHaveLength(1);
  });

  describe('with a callback domain: the token in the host name', () => {
    const domain = 'oob.example.com';
    const withDomain = (limits = {}) => new CallbackListener({ key, baseUrl: 'https://cb.example.net/oob', domain, recorder: { record: async (h) => void recorded.push(h) }, now: () => new Date(now), limits });
    const attemptId = '9f86d081-884c-5d63-b1e0-3b0d4a2f5c11';
    // two UUIDs: a token of two labels
    const labels = mintToken(key, { scanId, attemptId, stage: 'domain' }, 'host');

    it('hears a request to any path of a planted name (its Host), whatever its case and port', async () => {
      const l = withDomain();
      expect(labels.split('.')).toHaveLength(2);
      expect(l.hearsHost(`${labels.toUpperCase()}.OOB.example.com:8080`)).toBe(true);
      expect(l.hearsHost('oob.example.com')).toBe(false);
      expect(l.hearsHost('gauntlet.example.net')).toBe(false);
      const answer = await l.answer(request('/favicon.ico?x=1', { host: `${labels.toUpperCase()}.OOB.example.com:8080` }));
      expect(answer.status).toBe(200);
      expect(recorded).toEqual([{ scan_id: scanId, attempt_id: attemptId, token: labels, address: mintToken(key, { scanId, attemptId, stage: 'domain' }), method: 'GET', path: '/favicon.ico', query: 'x=1', host: `${labels}.oob.example.com`, source: '198.51.100.7', at: '2026-11-27T07:00:00.000Z' }]);
      // a name of the domain no scan planted proves nothing
      expect((await l.answer(request('/', { host: `www.${domain}` }))).status).toBe(404);
      expect((await l.answer(request('/', { host: `${labels.slice(0, -2)}.${domain}` }))).status).toBe(404);
      expect(recorded).toHaveLength(1);
    });

    it('records a lookup of a planted name as a DNS hit, answers other names of the domain without a hit, refuses the rest', async () => {
      const l = withDomain();
      expect(await l.lookup({ name: `acct-4417.${labels}.OOB.Example.com`, type: 'MX', source: '192.0.2.53' })).toEqual({ kind: 'ours', planted: true });
      expect(recorded).toEqual([{ scan_id: scanId, attempt_id: attemptId, token: labels, address: mintToken(key, { scanId, attemptId, stage: 'domain' }), method: 'DNS', path: '', host: `acct-4417.${labels}.oob.example.com`, record_type: 'MX', source: '192.0.2.53', at: '2026-11-27T07:00:00.000Z' }]);
      // the minimised lookups a resolver makes first (the domain, the token's last label) are ours, and no hit
      expect(await l.lookup({ name: domain, type: 'NS', source: '192.0.2.53' })).toEqual({ kind: 'ours', planted: false });
      expect(await l.lookup({ name: `${labels.split('.').pop()}.${domain}`, type: 'A', source: '192.0.2.53' })).toEqual({ kind: 'ours', planted: false });
      for (const name of ['example.com', `${labels}.example.com`, 'google.com', `${labels}.oob.example.com.evil.test`]) expect(await l.lookup({ name, type: 'A', source: '192.0.2.53' })).toEqual({ kind: 'refused' });
      expect(recorded).toHaveLength(1);
      // without a domain, the listener answers for no name
      expect(await listener().lookup({ name: `${labels}.${domain}`, type: 'A', source: '192.0.2.53' })).toEqual({ kind: 'refused' });
    });

    it('bounds one planted address however it is spelled: its path, its host name and a lookup of it share the limit, and each hit names the address', async () => {
      const l = withDomain({ perToken: 3, perSource: 100, windowMs: 60_000 });
      const inPath = mintToken(key, { scanId, attemptId, stage: 'domain' });
      const answers = [
        (await l.answer(request(`/${inPath}`))).status,
        (await l.answer(request('/', { host: `${labels}.${domain}` }))).status,
        await l.lookup({ name: `${labels}.${domain}`, type: 'A', source: '192.0.2.53' }),
        (await l.answer(request(`/${inPath}`))).status,
      ];
      expect(answers).toEqual([200, 200, { kind: 'ours', planted: true }, 429]);
      expect(recorded.map((h) => h.address)).toEqual([inPath, inPath, inPath]);
    });

    it('limits lookups per token and per source like requests: past the limit, no answer and no hit', async () => {
      const l = withDomain({ perToken: 2, perSource: 4, windowMs: 60_000 });
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await l.lookup({ name: `${labels}.${domain}`, type: 'A', source: '192.0.2.53' }));
      expect(seen).toEqual([{ kind: 'ours', planted: true }, { kind: 'ours', planted: true }, null]);
      expect(await l.lookup({ name: `www.${domain}`, type: 'A', source: '192.0.2.53' })).toEqual({ kind: 'ours', planted: false });
      expect(await l.lookup({ name: `www.${domain}`, type: 'A', source: '192.0.2.53' })).toBeNull();
      expect(recorded).toHaveLength(2);
    });
  });
});
