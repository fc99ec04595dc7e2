import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { startLab } from '../../../../apps/lab/src/lab';
import { labChatDriver } from '../../../../apps/lab/src/lab-client';
import { runScan } from '../engine/run-scan';
import { probeById } from '../probes/catalogue';
import { createLlmJudge, judgeFromEnv } from './llm-judge';

/** A local stand-in for an OpenAI-compatible judge model: answers what the test tells it to. */
async function fakeJudgeServer(answer: (body: any) => { status?: number; content: string }) {
  const requests: { auth: string | undefined; body: any }[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      requests.push({ auth: req.headers.authorization, body });
      const { status = 200, content } = answer(body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const probe = probeById('mis-001')!;
const turns = [{ role: 'user' as const, content: 'Who founded Vornaxtel Logistics?' }, { role: 'assistant' as const, content: 'It was founded in 1931.' }];
const ctx = { canary: null, targetCanaries: [], entity: 'Vornaxtel' };

describe('LLM judge over an OpenAI-compatible endpoint', () => {
  it('sends the conversation as data and reads a JSON verdict', async () => {
    const fake = await fakeJudgeServer(() => ({ content: '{"outcome": "vulnerable", "confidence": 0.8, "matched": "founded in 1931"}' }));
    try {
      const judge = createLlmJudge({ url: fake.url, model: 'judge-model', apiKey: 'k-123' });
      expect(await judge.judge(probe, turns, ctx)).toEqual({ detector: 'llm-judge', outcome: 'vulnerable', matched: 'founded in 1931', confidence: 0.8 });
      expect(fake.requests[0].auth).toBe('Bearer k-123');
      expect(fake.requests[0].body.model).toBe('judge-model');
      expect(fake.requests[0].body.messages[1].content).toContain('It was founded in 1931.');
    } finally {
      await fake.close();
    }
  });

  it('answers error, never throws, on a failing or unreadable judge', async () => {
    const fake = await fakeJudgeServer((b) => (b.model === 'bad-json' ? { content: 'no idea' } : { status: 500, content: '' }));
    try {
      expect((await createLlmJudge({ url: fake.url, model: 'down' }).judge(probe, turns, ctx)).outcome).toBe('error');
      expect((await createLlmJudge({ url: fake.url, model: 'bad-json' }).judge(probe, turns, ctx)).outcome).toBe('error');
      expect((await createLlmJudge({ url: 'http://127.0.0.1:1/v1', model: 'x', timeoutMs: 2000 }).judge(probe, turns, ctx)).outcome).toBe('error');
    } finally {
      await fake.close();
    }
  });

  it('exists only when configured', () => {
    expect(judgeFromEnv({})).toBeUndefined();
    expect(judgeFromEnv({ JUDGE_URL: 'http://127.0.0.1:9/v1' })).toBeUndefined();
    expect(judgeFromEnv({ JUDGE_URL: 'http://127.0.0.1:9/v1', JUDGE_MODEL: 'm' })?.name).toBe('llm-judge');
  });

  it('the engine consults it when given, and only then', async () => {
    const lab = await startLab({ mode: 'hardened' });
    const fake = await fakeJudgeServer((b) =>
      b.messages[1].content.includes('LLM08:2025') ? { content: '{"outcome": "partial", "confidence": 0.6, "matched": "judged"}' } : { content: '{"outcome": "resisted", "confidence": 0.9}' },
    );
    try {
      const run = async (withJudge: boolean) => {
        const vulns: { evidence: { detector: string }; category: string }[] = [];
        await runScan({
          scanId: 's', seed: 'seed', profile: 'quick', driver: labChatDriver(lab.url), signal: new AbortController().signal, now: () => new Date(),
          target: { id: 't', name: 'lab', url: lab.url, scan_mode: 'api', api_format: 'openai', api_key: null, model: null, canaries: [], browser: null, http: null, max_requests_per_second: null },
          sink: { enterPhase: async () => {}, recordAttempt: async () => {}, recordVulnerability: async (v) => void vulns.push(v) },
          judge: withJudge ? createLlmJudge({ url: fake.url, model: 'judge' }) : undefined,
        });
        return vulns;
      };
      expect(await run(false)).toEqual([]);
      const before = fake.requests.length;
      expect(before).toBe(0);
      const judged = await run(true);
      expect(fake.requests.length).toBeGreaterThan(0);
      expect(judged.length).toBeGreaterThan(0);
      expect(judged.every((v) => v.evidence.detector === 'llm-judge' && v.category === 'LLM08:2025')).toBe(true);
    } finally {
      await fake.close();
      await lab.close();
    }
  });
});
