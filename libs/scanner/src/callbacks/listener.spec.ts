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
    expect(recorded).toEqual([{ scan_id: scanId, attempt_id: 'a1', token, method: 'GET', path: '', source: '198.51.100.7', at: '2026-11-27T07:00:00.000Z' }]);
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
});
