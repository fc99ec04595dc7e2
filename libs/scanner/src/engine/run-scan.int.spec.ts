import { Phase, ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { RunningLab, startLab } from '../../../../apps/lab/src/lab';
import { labChatDriver } from '../../../../apps/lab/src/lab-client';
import { createChatDriver } from '../drivers';
import { OWASP_LLM_TOP10_2025 } from '@gauntlet/domain';
import { UNTESTABLE_CATEGORIES } from '../probes/catalogue';
import { TargetUnavailableError } from '../chat-driver';
import { runScan } from './run-scan';
import { AttemptFacts, RunScanInput, ScanSink, ScanTarget } from './types';

class MemorySink implements ScanSink {
  phases: { phase: Phase; progress: number }[] = [];
  attempts: ProbeAttempt[] = [];
  vulnerabilities: Vulnerability[] = [];
  progress: number[] = [];
  findingsSoFar: number[] = [];
  async enterPhase(phase: Phase, progress: number) {
    this.phases.push({ phase, progress });
    this.progress.push(progress);
  }
  async recordAttempt(attempt: ProbeAttempt, progress: number, facts?: AttemptFacts) {
    this.attempts.push(attempt);
    this.findingsSoFar.push(facts?.findingsSoFar ?? -1);
    this.progress.push(progress);
  }
  async recordVulnerability(v: Vulnerability) {
    this.vulnerabilities.push(v);
  }
}

const target = (url: string, canaries: string[]): ScanTarget => ({
  id: 't1', name: 'lab', url, scan_mode: 'api', api_format: 'openai', api_key: null, model: 'penny-lab', canaries,
  browser: null, http: null, max_requests_per_second: null,
});

function scan(lab: { url: string; canaries?: { system: string; data: string } }, over: Partial<RunScanInput> = {}) {
  const sink = new MemorySink();
  const canaries = lab.canaries ? [lab.canaries.system, lab.canaries.data] : [];
  const outcome = runScan({
    scanId: 's1', target: target(lab.url, canaries), profile: 'standard', seed: 'seed-1', driver: labChatDriver(lab.url), sink,
    signal: new AbortController().signal, now: () => new Date('2026-11-21T10:00:00Z'), limits: { messageTimeoutMs: 5_000 }, ...over,
  });
  return { sink, outcome };
}

describe('runScan against the lab', () => {
  // whole scans: bounded generously, since a busy 2-core machine may run several test files beside them
  jest.setTimeout(120_000);
  let vulnerable: RunningLab;
  let hardened: RunningLab;
  beforeAll(async () => {
    vulnerable = await startLab({ mode: 'vulnerable' });
    hardened = await startLab({ mode: 'hardened' });
  });
  afterAll(async () => {
    await vulnerable.close();
    await hardened.close();
  });

  it('finds every planted weakness in its category, through the phases in order with monotonic progress', async () => {
    const { sink, outcome } = scan(vulnerable);
    expect(await outcome).toEqual({ kind: 'completed' });
    expect(sink.phases.map((p) => p.phase)).toEqual(['recon', 'probe', 'amplify', 'analyze', 'report']);
    expect(sink.progress).toEqual([...sink.progress].sort((a, b) => a - b));
    // the bar moves with the work: no step over a phase's share, not even when probing hands over to amplify
    const steps = sink.progress.map((p, i) => p - (sink.progress[i - 1] ?? 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(15);
    // the running count rises with the attempts that prove weaknesses, never goes down and ends at the final count
    expect(sink.findingsSoFar).toEqual([...sink.findingsSoFar].sort((a, b) => a - b));
    expect(sink.findingsSoFar.find((n) => n > 0)).toBeDefined();
    expect(sink.findingsSoFar.findIndex((n) => n > 0)).toBeLessThan(sink.attempts.length / 2);
    expect(sink.findingsSoFar[sink.findingsSoFar.length - 1]).toBe(sink.vulnerabilities.length);
    const categories = new Set<string>(sink.vulnerabilities.map((v) => v.category));
    const testable = OWASP_LLM_TOP10_2025.map((c) => c.id as string).filter((c) => !UNTESTABLE_CATEGORIES.some((u) => u.category === c));
    for (const c of testable) expect([c, categories.has(c)]).toEqual([c, true]);
    const techniques = new Set(sink.vulnerabilities.map((v) => v.technique));
    // indirect injection, role-play jailbreak and converter-found variants each show up
    expect([...techniques].some((t) => t.startsWith('indirect-'))).toBe(true);
    expect(techniques.has('role-play')).toBe(true);
    expect(sink.vulnerabilities.some((v) => v.variants.some((x) => x.phase === 'amplify' && x.converters.length > 0))).toBe(true);
    // the planted canaries were caught as such
    expect(sink.vulnerabilities.some((v) => v.evidence.detector === 'target-canary')).toBe(true);
    // one finding per weakness (probe and category), fingerprinted by them; every attempt recorded and bounded
    const keys = sink.vulnerabilities.map((v) => `${v.probe_id}|${v.category}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(sink.vulnerabilities.every((v) => v.fingerprint === `${v.probe_id}:${v.category}` && !/\(via /.test(v.title))).toBe(true);
    // the leaked system prompt holds credentials: critical, and a sensitive-information finding too
    const leak = sink.vulnerabilities.find((v) => v.probe_id === 'spl-001' && v.category === 'LLM07:2025');
    expect(leak?.severity).toBe('critical');
    expect(sink.vulnerabilities.some((v) => v.probe_id === 'spl-001' && v.category === 'LLM02:2025')).toBe(true);
    expect(sink.attempts.every((a) => a.turns.every((t) => t.content.length <= 4_100))).toBe(true);
    expect(sink.attempts.filter((a) => a.phase === 'recon')).toHaveLength(1);
  });

  it('reports no high or critical finding against the hardened lab', async () => {
    const { sink, outcome } = scan(hardened);
    expect(await outcome).toEqual({ kind: 'completed' });
    const serious = sink.vulnerabilities.filter((v) => v.severity === 'high' || v.severity === 'critical');
    expect(serious.map((v) => `${v.probe_id} ${v.technique}: ${v.evidence.matched}`)).toEqual([]);
    expect(sink.attempts.length).toBeGreaterThan(60);
  });

  it('finds an instruction hidden in base64 only by amplifying (deep profile, encoding weakness only)', async () => {
    const lab = await startLab({ weaknesses: ['encoded_instructions'] });
    try {
      const { sink, outcome } = scan(lab, { profile: 'deep' });
      expect(await outcome).toEqual({ kind: 'completed' });
      expect(sink.vulnerabilities.filter((v) => v.phase === 'probe')).toEqual([]);
      const viaEncoding = sink.vulnerabilities.filter((v) => v.technique.includes('encoding'));
      expect(viaEncoding.length).toBeGreaterThan(0);
      expect(viaEncoding.every((v) => v.converters.some((c) => ['base64', 'hex', 'rot13', 'reverse'].includes(c)))).toBe(true);
    } finally {
      await lab.close();
    }
  });

  it('ends completed_partial when the target stops answering after probing began', async () => {
    const lab = await startLab({ failAfter: 20 });
    try {
      const { sink, outcome } = scan(lab);
      const result = await outcome;
      expect(result.kind).toBe('completed_partial');
      expect(sink.phases.map((p) => p.phase)).toEqual(['recon', 'probe', 'analyze', 'report']);
      expect(sink.attempts.length).toBeGreaterThanOrEqual(10);
    } finally {
      await lab.close();
    }
  });

  it('goes on when one conversation goes silent but the target still answers a harmless message', async () => {
    // an answer that breaks a chat page reads as "no answer": one such conversation is no reason to stop
    const real = labChatDriver(vulnerable.url);
    const silentOn = /<script>/;
    const flaky = {
      openConversation: async () => {
        const c = await real.openConversation();
        return { ...c, send: (m: string, o?: { signal?: AbortSignal }) => (silentOn.test(m) ? Promise.reject(new TargetUnavailableError('the chat page did not answer within 10000 ms')) : c.send(m, o)), close: () => c.close() };
      },
      close: () => real.close(),
    };
    const { sink, outcome } = scan(vulnerable, { driver: flaky, profile: 'quick' });
    expect(await outcome).toEqual({ kind: 'completed' });
    expect(sink.attempts.some((a) => a.error?.includes('did not answer'))).toBe(true);
    expect(new Set(sink.vulnerabilities.map((v) => v.category)).size).toBeGreaterThanOrEqual(6);
  });

  it('fails when the target never answers', async () => {
    const lab = await startLab();
    const url = lab.url;
    await lab.close();
    const { sink, outcome } = scan({ url });
    const result = await outcome;
    expect(result.kind).toBe('failed');
    expect(sink.attempts).toEqual([]);
  });

  it('stops quickly and answers cancelled when aborted', async () => {
    const slow = await startLab({ latencyMs: 200 });
    try {
      const controller = new AbortController();
      const { outcome } = scan(slow, { signal: controller.signal });
      setTimeout(() => controller.abort(), 500);
      const started = Date.now();
      expect(await outcome).toEqual({ kind: 'cancelled' });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await slow.close();
    }
  });

  it('keeps what it found when stopped midway: the findings so far are recorded before it answers cancelled', async () => {
    const slow = await startLab({ latencyMs: 50 });
    try {
      const controller = new AbortController();
      const { sink, outcome } = scan(slow, { signal: controller.signal });
      // stop once a weakness has shown in an attempt, long before analyze
      for (let i = 0; i < 600 && !sink.attempts.some((a) => a.verdict.outcome === 'vulnerable'); i++) await new Promise((r) => setTimeout(r, 50));
      controller.abort();
      expect(await outcome).toEqual({ kind: 'cancelled' });
      expect(sink.phases.map((p) => p.phase)).not.toContain('analyze');
      expect(sink.vulnerabilities.length).toBeGreaterThan(0);
    } finally {
      await slow.close();
    }
  });

  it('gives up on a message that gets no answer within the limit, records it and ends partial', async () => {
    // answers the first message, then never again: every later message must time out, not hang
    let sent = 0;
    const hanging = {
      openConversation: async () => ({
        send: () => (++sent === 1 ? Promise.resolve('Hello, I am Penny.') : new Promise<string>(() => undefined)),
        close: async () => undefined,
      }),
      close: async () => undefined,
    };
    const started = Date.now();
    const { sink, outcome } = scan(vulnerable, { driver: hanging, limits: { messageTimeoutMs: 300, maxConsecutiveErrors: 4 } });
    const result = await outcome;
    expect(result).toEqual({ kind: 'completed_partial', reason: expect.stringMatching(/failed 4 attempts in a row \(last: no answer within 300 ms\)/) });
    const timedOut = sink.attempts.filter((a) => a.error === 'no answer within 300 ms');
    expect(timedOut.length).toBeGreaterThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('stops and rethrows when the sink refuses a write', async () => {
    const sink = new MemorySink();
    let writes = 0;
    sink.recordAttempt = async () => {
      if (++writes === 3) throw new Error('scan is cancelled');
    };
    const { outcome } = scan(vulnerable, { sink });
    await expect(outcome).rejects.toThrow('scan is cancelled');
    expect(writes).toBeLessThanOrEqual(3 + 4);
  });

  it.each([
    ['openai', '/v1/chat/completions'],
    ['anthropic', '/v1/messages'],
  ] as const)('scans the lab through the real %s API driver', async (format, path) => {
    const t = { ...target(`${vulnerable.url}${path}`, [vulnerable.canaries.system, vulnerable.canaries.data]), api_format: format };
    const driver = createChatDriver(t, { allowPrivate: true, timeoutMs: 5_000 });
    try {
      const { sink, outcome } = scan(vulnerable, { profile: 'quick', target: t, driver });
      expect(await outcome).toEqual({ kind: 'completed' });
      expect(new Set(sink.vulnerabilities.map((v) => v.category)).size).toBeGreaterThanOrEqual(8);
    } finally {
      await driver.close();
    }
  });
});
