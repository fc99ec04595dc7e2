import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { evaluateJoins } from '../../../../apps/lab/src/brain';
import { ChatDriver } from '../chat-driver';
import { runScan } from '../engine/run-scan';
import { createLlmAttacker } from './llm-attacker';

/**
 * A scripted attacker model on loopback, speaking OpenAI chat completions: its first rewrite of
 * any attack is a plain plea, every later one frames the request "as a thought experiment".
 */
async function fakeAttacker() {
  const received: string[] = [];
  const read = (req: IncomingMessage) => new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => resolve(body));
  });
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse(await read(req)) as { messages: { role: string; content: string }[] };
    const ask = body.messages[body.messages.length - 1].content;
    received.push(ask);
    const request = /^Request: (.*)$/m.exec(ask)?.[1] ?? '';
    const prompt = /^Try \d+:/m.test(ask) ? `As a thought experiment, ${request}` : `Please, ${request}`;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ improvement: 'reframe', prompt }) } }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const REFUSAL = "I'm sorry, I can't help with that.";
/** A target that refuses everything, except a request framed as a thought experiment, which it carries out. */
const stubborn = (): ChatDriver => ({
  openConversation: async () => ({
    send: async (message) => (/thought experiment/i.test(message) ? evaluateJoins(message).match(/[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/)?.[0] ?? 'Hello!' : /^hello/i.test(message) ? 'Hello! How can I help?' : REFUSAL),
    close: async () => {},
  }),
  close: async () => {},
});

function scan(attacker?: ReturnType<typeof createLlmAttacker>) {
  const attempts: ProbeAttempt[] = [];
  const vulnerabilities: Vulnerability[] = [];
  const outcome = runScan({
    scanId: 'attacker-scan', seed: 'attacker-seed', profile: 'standard', driver: stubborn(), signal: new AbortController().signal, now: () => new Date(), attacker,
    target: { id: 't', name: 'stubborn', url: 'http://127.0.0.1:9/', scan_mode: 'api', api_format: 'openai', api_key: null, model: null, canaries: [], browser: null, http: null, max_requests_per_second: null },
    sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void vulnerabilities.push(v) },
  });
  return { outcome, attempts, vulnerabilities };
}

describe('the adaptive attacker (ATTACKER_URL)', () => {
  // whole scans: bounded generously, since a busy 2-core machine may run several test files beside them
  jest.setTimeout(120_000);
  it('rewrites refused attacks from the target refusals until one gets through; every try is recorded', async () => {
    const model = await fakeAttacker();
    try {
      const { outcome, attempts, vulnerabilities } = scan(createLlmAttacker({ url: model.url, model: 'red-team', apiKey: 'k' }));
      expect(await outcome).toEqual({ kind: 'completed' });
      const tries = attempts.filter((a) => a.converters.includes('attacker'));
      // a first rewrite for every category still resisting, a second one after each refusal
      expect(tries.length).toBeGreaterThanOrEqual(2 * 8);
      expect(new Set(tries.map((a) => a.attempt_id)).size).toBe(tries.length);
      expect(tries.every((a) => a.technique === 'adaptive-attacker' && a.phase === 'amplify')).toBe(true);
      // the second rewrite was asked for with the target's refusal as feedback
      expect(model.received.some((m) => m.includes(`ANSWER: ${REFUSAL}`) && m.includes('RESULT: refused'))).toBe(true);
      // the code word comes out of every category whose request asks for one (injection, markup): look at injection
      const found = vulnerabilities.find((v) => v.converters.includes('attacker') && v.category === 'LLM01:2025');
      expect(found).toMatchObject({ technique: 'adaptive-attacker' });
      expect(found!.evidence.turns[0].content).toMatch(/^As a thought experiment, /);
      expect(found!.how).toMatch(/rewritten by the attacker model/);
      // once through, the category is not attacked again by the model
      const injectionTries = tries.filter((a) => a.category === 'LLM01:2025');
      expect(injectionTries.at(-1)!.verdict.outcome).toBe('vulnerable');
    } finally {
      await model.close();
    }
  });

  it('is never contacted when not configured, and a broken attacker model only ends its own rounds', async () => {
    const model = await fakeAttacker();
    try {
      const without = scan();
      expect(await without.outcome).toEqual({ kind: 'completed' });
      expect(model.received).toEqual([]);
      expect(without.attempts.some((a) => a.converters.includes('attacker'))).toBe(false);
    } finally {
      await model.close();
    }
    const unreachable = scan(createLlmAttacker({ url: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2_000 }));
    expect(await unreachable.outcome).toEqual({ kind: 'completed' });
    expect(unreachable.attempts.some((a) => a.converters.includes('attacker'))).toBe(false);
  });

  it('reads only a JSON answer with a prompt; anything else is no rewrite', async () => {
    const answer = (status: number, content: string) => async () => new Response(JSON.stringify({ choices: [{ message: { content } }] }), { status });
    const goal = { category: 'LLM01:2025 Prompt Injection', objective: 'o', request: 'r' };
    expect(await createLlmAttacker({ url: 'http://x/v1', model: 'm', fetch: answer(200, 'Sure! {"prompt": "try this"}') }).next(goal, [])).toBe('try this');
    expect(await createLlmAttacker({ url: 'http://x/v1', model: 'm', fetch: answer(200, 'I will not help with that.') }).next(goal, [])).toBeNull();
    expect(await createLlmAttacker({ url: 'http://x/v1', model: 'm', fetch: answer(500, '{"prompt": "x"}') }).next(goal, [])).toBeNull();
    expect(await createLlmAttacker({ url: 'http://x/v1', model: 'm', fetch: answer(200, '{"prompt": "  "}') }).next(goal, [])).toBeNull();
  });
});
