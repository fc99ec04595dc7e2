import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { ChatEndpoint, startChatEndpoint } from '../support/chat-endpoint';
import { CountingProxy, startCountingProxy } from '../support/counting-proxy';
import { removeDir, RunningService, scanEnded, signUp, startService } from '../support/service';

jest.setTimeout(180_000);

/**
 * The plan and the budget over HTTP, each target behind a proxy counting what reaches it: plan_only
 * answers the plan and starts nothing; a scan's detail says what it sent beside its plan; a scan
 * with max_requests 40 holds to it and says it stopped at its budget and what it did not finish; a
 * schedule carries a budget to the scans it asks for.
 */
describe('the plan before the first request, and budgets that hold (api)', () => {
  let svc: RunningService;
  let lab: RunningLab;
  let refuser: ChatEndpoint;
  let labProxy: CountingProxy;
  let refuserProxy: CountingProxy;

  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable' });
    refuser = await startChatEndpoint('refuser', async () => "I'm sorry, but I can't help with that.");
    labProxy = await startCountingProxy(lab.url);
    refuserProxy = await startCountingProxy(refuser.url);
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000', OUTBOUND_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await svc?.stop();
    await Promise.all([labProxy?.close(), refuserProxy?.close()]);
    await Promise.all([lab?.close(), refuser?.close()]);
    if (svc) removeDir(svc.dataDir);
  });

  const register = async (api: Awaited<ReturnType<typeof signUp>>['api'], name: string, url: string) =>
    (await api.post('/api/targets', { name, url: `${url}/v1`, scan_mode: 'api', api_format: 'openai', model: 'm' })).body.id as string;

  it('plan_only answers 200 with the plan, sends nothing, starts nothing and spends no quota; a bad budget is a 400', async () => {
    const { api } = await signUp(svc.url);
    const target_id = await register(api, 'lab', labProxy.url);
    const planned = await api.post('/api/scans', { target_id, profile: 'quick', plan_only: true, price_in: 0.15, price_out: 0.6, max_requests: 40 });
    expect(planned.status).toBe(200);
    expect(planned.body).toMatchObject({
      profile: 'quick', requests: { min: expect.any(Number), likely: expect.any(Number), max: expect.any(Number) },
      by_phase: { recon: { min: 1, likely: 1, max: 1 }, probe: expect.any(Object), amplify: expect.any(Object) },
      tokens: { sent: expect.any(Object), received: expect.any(Object) }, seconds: expect.any(Object), cost: expect.any(Object),
      budget: { max_requests: 40, outlook: 'may_stop' },
    });
    expect(labProxy.posts()).toBe(0);
    expect((await api.get('/api/scans')).body.scans).toEqual([]);
    // the free plan's ten scans a month are all still there after more plans than that (each scan cancelled at once)
    for (let i = 0; i < 10; i++) expect((await api.post('/api/scans', { target_id, plan_only: true })).status).toBe(200);
    const direct = await register(api, 'lab directly', lab.url);
    for (let i = 0; i < 10; i++) {
      const started = await api.post('/api/scans', { target_id: direct, profile: 'quick' });
      expect(started.status).toBe(201);
      await api.post(`/api/scans/${started.body.id}/cancel`);
    }
    expect((await api.post('/api/scans', { target_id: direct, profile: 'quick' })).status).toBe(429);

    const bad = await api.post('/api/scans', { target_id, plan_only: true, max_cost: 1 });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect(bad.body.detail).toMatch(/max_cost needs price_in and price_out/);
    expect((await api.post('/api/scans', { target_id, max_requests: 0 })).status).toBe(400);
  });

  it("a finished scan's detail says what it sent beside its plan, counted as the target received it", async () => {
    const { api } = await signUp(svc.url);
    const target_id = await register(api, 'lab', labProxy.url);
    const before = labProxy.posts();
    const scan = (await api.post('/api/scans', { target_id, profile: 'quick' })).body;
    expect((await scanEnded(api, scan.id)).status).toBe('completed');
    const detail = (await api.get(`/api/scans/${scan.id}`)).body;
    const received = labProxy.posts() - before;
    expect(detail.spent.requests).toMatchObject({ sent: received, within_plan: true });
    expect(detail.plan.requests.min).toBeLessThanOrEqual(received);
    expect(detail.plan.requests.max).toBeGreaterThanOrEqual(received);
    expect(detail.requests.sent).toBe(received);
    expect(detail.budget).toBeNull();
  });

  it('max_requests 40: at most 40 reach the target; the scan ends completed_partial, "stopped at its budget", with what it did not finish', async () => {
    const { api } = await signUp(svc.url);
    const target_id = await register(api, 'refuser', refuserProxy.url);
    const scan = (await api.post('/api/scans', { target_id, profile: 'quick', max_requests: 40 })).body;
    const status = await scanEnded(api, scan.id);
    expect(status).toMatchObject({ status: 'completed_partial', reason: 'stopped at its budget', partial: true });
    expect(refuserProxy.posts()).toBeLessThanOrEqual(40);
    const detail = (await api.get(`/api/scans/${scan.id}`)).body;
    expect(detail.spent.requests.sent).toBe(refuserProxy.posts());
    expect(detail.budget).toEqual({ max_requests: 40 });
    expect(detail.unfinished).toMatchObject({ limit: 'max_requests', phases: ['amplify'] });
    expect(detail.unfinished.categories.length).toBeGreaterThan(0);
  });

  it("a schedule carries a budget to its scans; a field given null is taken away", async () => {
    const { api } = await signUp(svc.url);
    const target_id = await register(api, 'lab', labProxy.url);
    const created = await api.post('/api/schedules', { target_id, cron: '0 3 * * *', timezone: 'UTC', catch_up: 'skip', max_requests: 300, max_cost: 2, price_in: 1, price_out: 4 });
    expect(created.status).toBe(201);
    expect(created.body.budget).toEqual({ max_requests: 300, max_cost: 2, price_in: 1, price_out: 4 });
    const changed = await api.patch(`/api/schedules/${created.body.id}`, { max_requests: null, max_tokens: 100000 });
    expect(changed.status).toBe(200);
    expect(changed.body.budget).toEqual({ max_tokens: 100000, max_cost: 2, price_in: 1, price_out: 4 });
    expect((await api.patch(`/api/schedules/${created.body.id}`, { price_in: null })).status).toBe(400);
  });
});
