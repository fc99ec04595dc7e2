import { Phase, ProbeAttempt } from '@gauntlet/domain';
import { startChatEndpoint, ChatEndpoint } from '../../../../test/support/chat-endpoint';
import { createChatDriver } from '../drivers';
import { runScan } from './run-scan';
import { ScanTarget } from './types';

/**
 * A target slower than the scan's wait for one answer once its requests queue: it answers one
 * request at a time, each in 300 ms, and the scan waits 1 s for an answer. Six conversations
 * sent at once would leave the last queued 1.8 s; the scan keeps one until the first answer says
 * how slow the target is, and waits for an answer by that (answer-deadline.ts).
 */
describe('a scan of a target that answers one request at a time, slower than the wait for an answer once queued', () => {
  jest.setTimeout(120_000);
  let endpoint: ChatEndpoint;
  let queued = 0;
  let widest = 0;
  beforeAll(async () => {
    let line = Promise.resolve();
    endpoint = await startChatEndpoint('slow', (message) => {
      widest = Math.max(widest, ++queued);
      const answer = line.then(async () => {
        await new Promise((r) => setTimeout(r, 300));
        return `I cannot help with that (${message.length} characters read).`;
      });
      line = answer.then(() => undefined);
      return answer.finally(() => queued--);
    });
  });
  afterAll(() => endpoint.close());

  it('times out none of the requests it queued, and still keeps several in flight', async () => {
    const target = {
      id: 't', name: 'slow', url: `${endpoint.url}/v1`, scan_mode: 'api', api_format: 'openai', api_key: null, model: 'slow', canaries: [],
      browser: null, http: null, max_requests_per_second: null,
    } as ScanTarget;
    const driver = createChatDriver(target, { allowPrivate: true, concurrency: { initial: 6, max: 6 } });
    const attempts: ProbeAttempt[] = [];
    try {
      const outcome = await runScan({
        scanId: 'slow', seed: 'slow', profile: 'quick', driver, target, selection: { probes: ['pi-001', 'pi-002', 'pi-003', 'pi-004', 'pi-005', 'pi-006', 'jb-001', 'jb-002'] },
        signal: new AbortController().signal, now: () => new Date(), limits: { messageTimeoutMs: 1_000 },
        sink: { enterPhase: async (_: Phase) => {}, recordAttempt: async (a: ProbeAttempt) => void attempts.push(a), recordVulnerability: async () => {} },
      });
      expect(outcome).toEqual({ kind: 'completed' });
      expect(attempts.length).toBeGreaterThanOrEqual(8);
      expect(attempts.filter((a) => a.error)).toEqual([]);
      // the requests did queue at the target: the scan did not settle for one at a time
      expect(widest).toBeGreaterThan(3);
    } finally {
      await driver.close();
    }
  });
});
