import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { Phase, ProbeAttempt, ProvenWeakness, Vulnerability } from '@gauntlet/domain';
import { startMailingAgent } from '../../../../test/support/mailing-agent';
import { createChatDriver } from '../drivers';
import { runScan } from '../engine/run-scan';
import { AttemptFacts, ScanSink, ScanTarget } from '../engine/types';
import { CallbackDnsServer, startCallbackDns } from './dns-server';
import { startCallbackServer } from './http-server';
import { CallbackListener } from './listener';
import { MemoryHits } from '../../testing/memory-hits';
import { callbackKey } from './token';

class MemorySink implements ScanSink {
  attempts: { attempt: ProbeAttempt; findingsSoFar?: number; proved?: ProvenWeakness[] }[] = [];
  vulnerabilities: Vulnerability[] = [];
  async enterPhase(_phase: Phase) {}
  async recordAttempt(attempt: ProbeAttempt, _progress: number, facts?: AttemptFacts) {
    this.attempts.push({ attempt, findingsSoFar: facts?.findingsSoFar, proved: facts?.proved });
  }
  async recordVulnerability(v: Vulnerability) {
    this.vulnerabilities.push(v);
  }
}

const DOMAIN = 'oob.gauntlet.test';

describe('out-of-band proof by DNS: an e-mail domain planted, looked up by the target\'s mail system', () => {
  jest.setTimeout(30_000);
  const key = callbackKey(randomBytes(32));
  const hits = new MemoryHits();
  let dns: CallbackDnsServer;
  let resolver: Resolver;
  let agent: Awaited<ReturnType<typeof startMailingAgent>>;

  beforeAll(async () => {
    const listener = new CallbackListener({ key, baseUrl: 'http://127.0.0.1:9/oob', domain: DOMAIN, recorder: hits, now: () => new Date() });
    dns = await startCallbackDns(listener, { host: '127.0.0.1', port: 0, answers: ['127.0.0.1'] });
    resolver = new Resolver({ timeout: 2_000, tries: 1 });
    resolver.setServers([`127.0.0.1:${dns.port}`]);
    agent = await startMailingAgent(resolver);
  });
  afterAll(async () => {
    await agent?.close();
    await dns?.close();
  });

  it('a lookup of the planted name is a hit on the scan, an out_of_band finding (LLM06 high), and counted live with the attempt that planted it', async () => {
    const scanId = '0b7a3c1e-5d2f-4e8a-9c1b-2f3e4d5c6b7a';
    const target: ScanTarget = { id: 't1', name: 'mailer', url: `${agent.url}/v1`, scan_mode: 'api', api_format: 'openai', api_key: null, model: 'mailer', canaries: [], browser: null, http: null, max_requests_per_second: null };
    const sink = new MemorySink();
    const outcome = await runScan({
      scanId, target, profile: 'quick', selection: { probes: ['oob-005'] }, seed: 'seed', driver: createChatDriver(target, { allowPrivate: true, timeoutMs: 5_000 }),
      sink, signal: new AbortController().signal, now: () => new Date(), limits: { messageTimeoutMs: 5_000 },
      callbacks: { baseUrl: 'http://127.0.0.1:9/oob', domain: DOMAIN, key, inbox: hits, graceMs: 200 },
    });
    expect(outcome).toEqual({ kind: 'completed' });
    // the planted address: billing@<token labels>.<domain>, looked up by the agent's "mail system"
    const planted = sink.attempts.find((a) => a.attempt.probe_id === 'oob-005')!;
    expect(planted.attempt.turns[0].content).toMatch(new RegExp(`billing@[a-z2-7.]+\\.${DOMAIN.replace(/\./g, '\\.')}`));
    const ours = hits.recorded.filter((h) => h.scan_id === scanId);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours[0]).toMatchObject({ attempt_id: planted.attempt.attempt_id, method: 'DNS', record_type: 'MX', source: '127.0.0.1', path: '' });
    expect(ours[0].host!.endsWith(`.${DOMAIN}`)).toBe(true);
    const [finding] = sink.vulnerabilities.filter((v) => v.evidence.proof?.matched.kind === 'out_of_band');
    expect([finding.category, finding.severity, finding.title]).toEqual(['LLM06:2025', 'high', 'Sends mail to a recipient an attacker names']);
    const proof = finding.evidence.proof!;
    expect(proof.matched).toMatchObject({ kind: 'out_of_band', method: 'DNS', host: ours[0].host });
    // pinned on the planted name in the user's turn
    expect(finding.evidence.turns[proof.turn].content.slice(proof.start, proof.end)).toBe(proof.text);
    expect(proof.text).toBe(ours[0].host);
    // the live count: the attempt that planted carries the weakness its lookup proved
    expect(planted.findingsSoFar).toBe(1);
    expect(planted.proved?.map((p) => p.fingerprint)).toEqual([finding.fingerprint]);
  });

  it('a name of the domain no scan planted records nothing (answered with no records), and a name outside it is refused', async () => {
    const before = hits.recorded.length;
    await expect(resolver.resolve4(`www.${DOMAIN}`)).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolver.resolve4(`aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.${DOMAIN}`)).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolver.resolve4('example.com')).rejects.toMatchObject({ code: 'EREFUSED' });
    expect(hits.recorded.length).toBe(before);
  });

  it('a planted name resolves to the configured address (A) and its mail to itself (MX)', async () => {
    const name = hits.recorded[0].host!;
    expect(await resolver.resolve4(name)).toEqual(['127.0.0.1']);
    expect(await resolver.resolveMx(name)).toEqual([{ exchange: name, priority: 10 }]);
  });

  it('the same name asked for over HTTP (its Host, any path) is a hit too, through the plain callback server', async () => {
    const listener = new CallbackListener({ key, baseUrl: 'http://127.0.0.1:9/oob', domain: DOMAIN, recorder: hits, now: () => new Date() });
    const server = await startCallbackServer(listener);
    try {
      const name = hits.recorded[0].host!;
      const before = hits.recorded.length;
      const port = new URL(server.url).port;
      const status = await new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path: '/unfurl?x=1', headers: { host: `${name}:${port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject).end();
      });
      expect(status).toBe(200);
      expect(hits.recorded.slice(before)).toEqual([expect.objectContaining({ method: 'GET', host: name, path: '/unfurl', query: 'x=1' })]);
      // another host on the same server: only /oob/ is the listener's
      expect((await fetch(`${server.url}/unfurl`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('without a callback domain the probes that plant one do not run', async () => {
    const target: ScanTarget = { id: 't1', name: 'mailer', url: `${agent.url}/v1`, scan_mode: 'api', api_format: 'openai', api_key: null, model: 'mailer', canaries: [], browser: null, http: null, max_requests_per_second: null };
    const sink = new MemorySink();
    await runScan({
      scanId: 'scan-no-domain', target, profile: 'quick', selection: { probes: ['oob-005', 'oob-003'] }, seed: 's', driver: createChatDriver(target, { allowPrivate: true, timeoutMs: 5_000 }),
      sink, signal: new AbortController().signal, now: () => new Date(), limits: { messageTimeoutMs: 5_000 }, callbacks: { baseUrl: 'http://127.0.0.1:9/oob', key, inbox: hits, graceMs: 0 },
    });
    const probes = new Set(sink.attempts.map((a) => a.attempt.probe_id));
    expect(probes.has('oob-003')).toBe(true);
    expect(probes.has('oob-005')).toBe(false);
  });
});
