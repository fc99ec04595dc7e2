import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningLab, startLab } from '../../lab/src/lab';
import { ChatEndpoint, startChatEndpoint } from '../../../test/support/chat-endpoint';
import { CountingProxy, startCountingProxy } from '../../../test/support/counting-proxy';
import { runGauntlet as gauntlet } from '../../../test/support/cli-process';

/**
 * `gauntlet scan --plan` and a budget, as a user runs them: the built CLI in its own process, each
 * target behind a proxy that counts the requests reaching it (the lab, and a target that refuses
 * everything). The plan sends nothing (one request with --measure-pace); a scan's count lands
 * inside its plan's range and its last lines say so; --max-requests 40 holds and says where it stopped.
 */
describe('gauntlet scan: the plan before the first request, and a budget that holds', () => {
  jest.setTimeout(240_000);
  let lab: RunningLab;
  let refuser: ChatEndpoint;
  let labProxy: CountingProxy;
  let refuserProxy: CountingProxy;
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-cli-budget-'));
  const dataDir = join(dir, 'data');
  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable' });
    refuser = await startChatEndpoint('refuser', async () => "I'm sorry, but I can't help with that.");
    labProxy = await startCountingProxy(lab.url);
    refuserProxy = await startCountingProxy(refuser.url);
  });
  afterAll(async () => {
    await Promise.all([labProxy?.close(), refuserProxy?.close()]);
    await Promise.all([lab?.close(), refuser?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('--plan --json prints one JSON object and sends nothing; --measure-pace sends one request', async () => {
    const r = await gauntlet(['scan', `${labProxy.url}/v1`, '--model', 'penny-lab', '--profile', 'quick', '--plan', '--json', '--price-in', '0.15', '--price-out', '0.6', '--data-dir', dataDir], dir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const plan = JSON.parse(lines[0]);
    expect(plan).toMatchObject({ profile: 'quick', requests: { min: expect.any(Number), likely: expect.any(Number), max: expect.any(Number) }, seconds: expect.any(Object), tokens: expect.any(Object), cost: expect.any(Object) });
    expect(plan.requests.min).toBeLessThanOrEqual(plan.requests.likely);
    expect(plan.requests.likely).toBeLessThanOrEqual(plan.requests.max);
    expect(labProxy.posts()).toBe(0);

    const measured = await gauntlet(['scan', `${labProxy.url}/v1`, '--model', 'penny-lab', '--profile', 'quick', '--plan', '--measure-pace', '--data-dir', dataDir], dir);
    expect(measured.code).toBe(0);
    expect(measured.out).toMatch(/^ {2}requests {2}\d+\.\.\d+, likely \d+/m);
    expect(measured.out).toContain('(measured just now with one request)');
    expect(labProxy.posts()).toBe(1);
  });

  it("a scan's count lands inside its plan's min..max, and its last lines say what it sent beside the plan", async () => {
    const before = labProxy.posts();
    const r = await gauntlet(['scan', `${labProxy.url}/v1`, '--model', 'penny-lab', '--name', 'counted lab', '--profile', 'quick', '--data-dir', dataDir, '--report', 'out/lab.json'], dir);
    expect(r.code).toBe(0);
    const sent = labProxy.posts() - before;
    const report = JSON.parse(readFileSync(join(dir, 'out/lab.json'), 'utf8'));
    expect(report.spending.requests).toMatchObject({ sent, within_plan: true });
    expect(sent).toBeGreaterThanOrEqual(report.spending.requests.plan.min);
    expect(sent).toBeLessThanOrEqual(report.spending.requests.plan.max);
    expect(r.out).toContain(`spent: ${sent} requests sent (plan ${report.spending.requests.plan.min}..${report.spending.requests.plan.max}, likely`);
  });

  it('--max-requests 40: at most 40 reach the target, and the scan says it stopped at its budget and what it did not finish', async () => {
    const r = await gauntlet(['scan', `${refuserProxy.url}/v1`, '--model', 'm', '--name', 'refuser', '--profile', 'quick', '--max-requests', '40', '--data-dir', dataDir, '--report', 'out/refuser.json'], dir);
    expect(refuserProxy.posts()).toBeLessThanOrEqual(40);
    // a scan cut short does not pass a gate unless asked to
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^Grade \S+ \(\d+\/100\) PARTIAL: stopped at its budget/m);
    expect(r.out).toMatch(/^stopped at its budget \(max_requests\): not finished: the amplify phase; categories LLM/m);
    const report = JSON.parse(readFileSync(join(dir, 'out/refuser.json'), 'utf8'));
    expect(report.scan).toMatchObject({ status: 'completed_partial', reason: 'stopped at its budget', partial: true });
    expect(report.spending).toMatchObject({ requests: { sent: refuserProxy.posts() }, budget: { max_requests: 40 }, unfinished: { limit: 'max_requests', phases: ['amplify'] } });
  });
});
