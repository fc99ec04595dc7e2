import { Profile, ScanBudget } from '@gauntlet/domain';
import { startLab } from '../../../../apps/lab/src/lab';
import { startChatEndpoint } from '../../../../test/support/chat-endpoint';
import { startCountingProxy } from '../../../../test/support/counting-proxy';
import { SpendMeter } from '../budget/meter';
import { createChatDriver } from '../drivers';
import { agentToolsToPlan } from './agent-tools';
import { planScan } from './request-plan';
import { runScan } from './run-scan';

/**
 * The plan against what really reached the target: each target behind a proxy that counts the
 * requests it forwards. The plan sends nothing; a scan's count lands inside its plan's min..max;
 * a budget holds exactly and the scan says where it stopped.
 */
async function planAndScan(upstream: string, profile: Profile, budget: ScanBudget | null = null) {
  const proxy = await startCountingProxy(upstream);
  const target = { id: 'plan-target', name: 'plan', url: `${proxy.url}/v1/chat/completions`, scan_mode: 'api' as const, api_format: 'openai' as const, api_key: null, model: 'm', canaries: [], browser: null, http: null, max_requests_per_second: null };
  const meter = new SpendMeter(budget);
  const driver = createChatDriver(target, { allowPrivate: true, timeoutMs: 10_000, meter });
  try {
    const plan = planScan({ target, tools: await agentToolsToPlan(target), profile, seed: 'plan-spec', callbacks: null, models: { attacker: false, judge: false }, budget });
    const sentByPlan = proxy.posts();
    const outcome = await runScan({
      scanId: 'plan-spec', seed: 'plan-spec', profile, driver, signal: new AbortController().signal, now: () => new Date(), target, budget, meters: { target: meter },
      sink: { enterPhase: async () => {}, recordAttempt: async () => {}, recordVulnerability: async () => {} },
    });
    return { plan, sentByPlan, outcome, received: proxy.posts(), counted: meter.usage };
  } finally {
    await driver.close();
    await proxy.close();
  }
}

describe('the plan against the requests a target receives (quick profile, behind a counting proxy)', () => {
  jest.setTimeout(120_000);
  const refuser = () => startChatEndpoint('refuser', async () => "I'm sorry, but I can't help with that.");

  it.each([
    ['a target that refuses everything', async () => {
      const bot = await refuser();
      return { url: bot.url, close: () => bot.close() };
    }],
    ['the lab', async () => {
      const lab = await startLab({ port: 0 });
      return { url: lab.url, close: () => lab.close() };
    }],
  ])('%s: the count lands inside min..max, the meter counts what arrived, the plan sends nothing', async (_name, start) => {
    const target = await start();
    try {
      const { plan, sentByPlan, outcome, received, counted } = await planAndScan(target.url, 'quick');
      expect(outcome).toEqual({ kind: 'completed' });
      expect(sentByPlan).toBe(0);
      expect(counted.requests).toBe(received);
      expect(received).toBeGreaterThanOrEqual(plan.requests.min);
      expect(received).toBeLessThanOrEqual(plan.requests.max);
    } finally {
      await target.close();
    }
  });

  it('max_requests 40: at most 40 reach the target, and the scan says it stopped at its budget and what it did not finish', async () => {
    const bot = await refuser();
    try {
      const { plan, outcome, received, counted } = await planAndScan(bot.url, 'quick', { max_requests: 40 });
      expect(plan.budget?.outlook).toBe('may_stop');
      expect(received).toBeLessThanOrEqual(40);
      expect(counted.requests).toBe(received);
      expect(outcome).toMatchObject({ kind: 'stopped_at_budget', unfinished: { limit: 'max_requests', phases: ['amplify'] } });
      if (outcome.kind === 'stopped_at_budget') expect(outcome.unfinished.categories.length).toBeGreaterThan(0);
    } finally {
      await bot.close();
    }
  });
});
