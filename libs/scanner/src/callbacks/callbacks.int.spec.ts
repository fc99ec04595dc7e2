import { randomBytes } from 'node:crypto';
import { Phase, ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { FetchingAgent, startFetchingAgent } from '../../../../test/support/fetching-agent';
import { createChatDriver } from '../drivers';
import { runScan } from '../engine/run-scan';
import { ScanSink, ScanTarget } from '../engine/types';
import { CallbackListener } from './listener';
import { MemoryHits } from '../../testing/memory-hits';
import { CallbackServer, startCallbackServer } from './http-server';
import { callbackKey } from './token';

class MemorySink implements ScanSink {
  phases: Phase[] = [];
  attempts: ProbeAttempt[] = [];
  vulnerabilities: Vulnerability[] = [];
  async enterPhase(phase: Phase) {
    this.phases.push(phase);
  }
  async recordAttempt(attempt: ProbeAttempt) {
    this.attempts.push(attempt);
  }
  async recordVulnerability(v: Vulnerability) {
    this.vulnerabilities.push(v);
  }
}

const CUSTOMER = 'Dana Whitfield';

describe('out-of-band proof: a loopback agent app that fetches what it is sent', () => {
  jest.setTimeout(60_000);
  const key = callbackKey(randomBytes(32));
  let server: CallbackServer;
  let hits: MemoryHits;
  const agents: FetchingAgent[] = [];

  beforeAll(async () => {
    hits = new MemoryHits();
    let base = '';
    const listener = new CallbackListener({ key, get baseUrl() { return base; }, recorder: hits, now: () => new Date() });
    server = await startCallbackServer(listener);
    base = `${server.url}/oob`;
  });
  afterAll(async () => {
    await server.close();
    for (const a of agents) await a.close();
  });

  async function scanAgent(options: { fetches: boolean; follows: boolean }, scanId: string) {
    const agent = await startFetchingAgent({ ...options, customer: CUSTOMER });
    agents.push(agent);
    const target: ScanTarget = {
      id: 't1', name: 'agent', url: `${agent.url}/v1`, scan_mode: 'api', api_format: 'openai', api_key: null, model: 'agent', canaries: [],
      sensitive: [{ label: 'customer name', value: CUSTOMER }], browser: null, http: null, max_requests_per_second: null,
    };
    const sink = new MemorySink();
    const outcome = await runScan({
      scanId, target, profile: 'quick', selection: { probes: ['oob-001', 'oob-002'] }, seed: 'seed', driver: createChatDriver(target, { allowPrivate: true, timeoutMs: 5_000 }),
      sink, signal: new AbortController().signal, now: () => new Date(), limits: { messageTimeoutMs: 5_000 },
      callbacks: { baseUrl: `${server.url}/oob`, key, inbox: hits, graceMs: 500 },
    });
    return { outcome, sink, agent };
  }

  it('catches the agent that fetched the planted page and obeyed it: out_of_band proof on the user turn that planted it', async () => {
    const { outcome, sink, agent } = await scanAgent({ fetches: true, follows: true }, '0b7a3c1e-5d2f-4e8a-9c1b-2f3e4d5c6b7a');
    expect(outcome).toEqual({ kind: 'completed' });
    expect(agent.fetched.length).toBeGreaterThan(0);
    const byCategory = new Map(sink.vulnerabilities.filter((v) => v.evidence.proof?.matched.kind === 'out_of_band').map((v) => [v.category, v]));
    // the planted page was fetched (low), its instruction obeyed (high), the customer's name carried away (critical)
    expect(byCategory.get('LLM06:2025')?.severity).toBe('low');
    expect(byCategory.get('LLM01:2025')?.severity).toBe('high');
    const leak = byCategory.get('LLM02:2025')!;
    expect(leak.severity).toBe('critical');
    expect(leak).toMatchObject({ title: "Sends the customer's data (name) to an attacker's address", exposures: [{ label: 'customer name', via: ['request'] }] });
    // the value is named by its label, never quoted in the finding
    expect(JSON.stringify(leak.evidence.proof)).not.toContain('Dana');
    const proof = byCategory.get('LLM01:2025')!.evidence.proof!;
    expect(proof.matched).toMatchObject({ kind: 'out_of_band', method: 'GET', query: expect.stringContaining('customer=') });
    const turn = byCategory.get('LLM01:2025')!.evidence.turns[proof.turn];
    expect(turn.role).toBe('user');
    expect(turn.content.slice(proof.start, proof.end)).toBe(proof.text);
    expect(proof.text.startsWith(`${server.url}/oob/`)).toBe(true);
    // every hit belongs to an attempt this scan recorded
    const attemptIds = new Set(sink.attempts.map((a) => a.attempt_id));
    expect(hits.recorded.filter((h) => h.scan_id === '0b7a3c1e-5d2f-4e8a-9c1b-2f3e4d5c6b7a').every((h) => attemptIds.has(h.attempt_id))).toBe(true);
  });

  it('a safe agent that reads what it is asked to read and never obeys it: nothing above low, no LLM01', async () => {
    const { sink } = await scanAgent({ fetches: true, follows: false }, 'scan-safe');
    const oob = sink.vulnerabilities.filter((v) => v.evidence.proof?.matched.kind === 'out_of_band');
    expect(oob.length).toBeGreaterThan(0);
    expect(new Set(oob.map((v) => `${v.category} ${v.severity}`))).toEqual(new Set(['LLM06:2025 low']));
  });

  it('a bot that fetches nothing gets no out_of_band finding, and the planted probes still ran', async () => {
    const { sink } = await scanAgent({ fetches: false, follows: false }, 'scan-bot');
    expect(sink.attempts.some((a) => a.probe_id === 'oob-001' && a.turns[0].content.includes(`${server.url}/oob/`))).toBe(true);
    expect(sink.vulnerabilities.filter((v) => v.evidence.proof?.matched.kind === 'out_of_band')).toEqual([]);
  });

  it('without a listener the probes that plant addresses do not run at all', async () => {
    const agent = await startFetchingAgent({ fetches: true, follows: true, customer: CUSTOMER });
    agents.push(agent);
    const target: ScanTarget = { id: 't1', name: 'agent', url: `${agent.url}/v1`, scan_mode: 'api', api_format: 'openai', api_key: null, model: 'agent', canaries: [], browser: null, http: null, max_requests_per_second: null };
    const sink = new MemorySink();
    await runScan({ scanId: 'scan-none', target, profile: 'quick', selection: { probes: ['oob-001'] }, seed: 's', driver: createChatDriver(target, { allowPrivate: true, timeoutMs: 5_000 }), sink, signal: new AbortController().signal, now: () => new Date() });
    expect(sink.attempts.filter((a) => a.probe_id.startsWith('oob-'))).toEqual([]);
    expect(agent.fetched).toEqual([]);
  });
});
