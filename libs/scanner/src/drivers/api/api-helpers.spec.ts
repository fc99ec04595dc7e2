import { TargetProtocolError } from '../../chat-driver';
import { answerAtPath, fillBodyTemplate } from './json-template';
import { RequestPacer } from './request-pacer';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from './retry-policy';
import { readServerSentEvents, ServerSentEvent } from './server-sent-events';

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(['3'], now)).toBe(3_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});

describe('retryDelay', () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
  it('doubles with each retry, jittered between half and all of the step, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, policy, null, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, policy, null, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });
  it('uses the target Retry-After, capped', () => {
    expect(retryDelay(1, policy, 2_000, () => 0.5)).toBe(2_000);
    expect(retryDelay(1, policy, 3_600_000)).toBe(5_000);
    expect(retryDelay(1, policy, 0)).toBe(0);
  });
});

describe('readServerSentEvents', () => {
  async function events(...chunks: Array<string | Uint8Array>): Promise<ServerSentEvent[]> {
    const out: ServerSentEvent[] = [];
    for await (const e of readServerSentEvents((async function* () { yield* chunks; })())) out.push(e);
    return out;
  }
  it('reads events cut anywhere, with any line ending, comments and multi-line data', async () => {
    expect(await events(': comment\n', 'event: a\r', '\ndata: one\r\ndata:two\r\n', '\r\ndata: {"x":', '1}\n\n', 'data: last')).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: 'message', data: '{"x":1}' },
      { event: 'message', data: 'last' },
    ]);
  });
  it('keeps a UTF-8 character split across chunks whole', async () => {
    const bytes = new TextEncoder().encode('data: ☃\n\n');
    expect(await events(bytes.slice(0, 8), bytes.slice(8))).toEqual([{ event: 'message', data: '☃' }]);
  });
});

describe('fillBodyTemplate and answerAtPath', () => {
  it('escapes the prompt for a JSON string and inserts the history as an array', () => {
    const turns = [{ role: 'user' as const, content: 'say "hi"\n' }];
    expect(JSON.parse(fillBodyTemplate('{"q": "{{prompt}}", "all": {{messages}}}', turns))).toEqual({ q: 'say "hi"\n', all: turns });
  });
  it('fills a bare {{prompt}} standing for a value as a whole JSON string', () => {
    const turns = [{ role: 'user' as const, content: 'say "hi"' }];
    expect(JSON.parse(fillBodyTemplate('{"input": {{prompt}}, "list": [{{prompt}}], "q": "Q: {{prompt}}"}', turns))).toEqual({ input: 'say "hi"', list: ['say "hi"'], q: 'Q: say "hi"' });
  });
  it('refuses a template that does not give JSON', () => {
    expect(() => fillBodyTemplate('q={{prompt}}', [{ role: 'user', content: 'x' }])).toThrow(TargetProtocolError);
  });
  it('follows dot paths through objects and arrays', () => {
    const answer = { choices: [{ message: { content: 'text' } }], n: 3, nested: { a: 1 } };
    expect(answerAtPath(answer, 'choices.0.message.content')).toBe('text');
    expect(answerAtPath(answer, 'n')).toBe('3');
    expect(answerAtPath(answer, 'nested')).toBe('{"a":1}');
    expect(() => answerAtPath(answer, 'choices.1.message')).toThrow(/response_path "choices.1.message"/);
  });
});

describe('RequestPacer', () => {
  it('spaces requests on a shared schedule, just under the rate given (4/s: 258 ms apart)', async () => {
    const now = 1_000;
    const pacer = new RequestPacer(4, () => now);
    await pacer.take(); // first slot is free
    const started: number[] = [];
    jest.useFakeTimers({ now });
    try {
      const waits = [pacer.take(), pacer.take()].map((p, i) => p.then(() => started.push(i)));
      await jest.advanceTimersByTimeAsync(255);
      expect(started).toEqual([]);
      await jest.advanceTimersByTimeAsync(5);
      expect(started).toEqual([0]);
      await jest.advanceTimersByTimeAsync(260);
      await Promise.all(waits);
      expect(started).toEqual([0, 1]);
    } finally {
      jest.useRealTimers();
    }
  });
  it('lets everything through when no rate is set', async () => {
    const pacer = new RequestPacer(null);
    await Promise.all([pacer.take(), pacer.take(), pacer.take()]);
  });
});
