import { ServerResponse } from 'node:http';
import { TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { createChatDriver } from '../create-chat-driver';
import { apiFormat } from '@gauntlet/domain';
import { ApiFormatChatDriver } from './api-format-driver';
import { ApiDriverOptions } from './api-transport';
import { RequestPacer } from './request-pacer';
import { FAST as fast, fakeApi, json, KEY } from './testing/fake-api';

describe('API chat drivers against a local fake target', () => {
  // a fake target on loopback; each test says how it answers and reads what it state.received
  const api = fakeApi();
  const { state } = api;

  /**
   * When each request left, in order, as the driver's pace let it go. The pace is kept where
   * requests leave: when one reaches the target also holds the time a busy machine takes to open
   * a socket and write, so arrivals may bunch by tens of milliseconds.
   */
  async function departuresOf(sending: () => Promise<unknown>): Promise<number[]> {
    const departures: number[] = [];
    const take = RequestPacer.prototype.take;
    const spy = jest.spyOn(RequestPacer.prototype, 'take').mockImplementation(async function (this: RequestPacer, signal?: AbortSignal) {
      const at = await take.call(this, signal);
      departures.push(at);
      return at;
    });
    try {
      await sending();
    } finally {
      spy.mockRestore();
    }
    return departures.sort((a, b) => a - b);
  }
  const track = api.track;
  const openai = (options: Partial<ApiDriverOptions> = {}, target: { stream?: boolean; api_key?: string | null } = {}) =>
    track(new ApiFormatChatDriver(apiFormat('openai'), { url: `${state.base}/v1/chat/completions`, api_key: KEY, model: 'gpt-test', ...target }, { ...fast, ...options }));
  const completion = (content: string) => ({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a failure'); }, (err: unknown) => err as Error);

  describe('OpenAiChatDriver', () => {
    it('posts {model, messages, stream} with the key in Authorization and keeps the history for multi-turn', async () => {
      state.handler = (r, res) => json(res, 200, completion(`echo ${r.body.messages.length}: ${r.body.messages.at(-1).content}`));
      const conversation = await openai().openConversation();
      expect(await conversation.send('hello')).toBe('echo 1: hello');
      expect(await conversation.send('and again')).toBe('echo 3: and again');
      expect(state.received[0].path).toBe('/v1/chat/completions');
      expect(state.received[0].headers.authorization).toBe(`Bearer ${KEY}`);
      expect(state.received[0].body).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }], stream: false });
      expect(state.received[1].body.messages).toEqual([
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: 'echo 1: hello' },
        { role: 'user', content: 'and again' },
      ]);
    });

    it('gives each conversation its own history', async () => {
      state.handler = (r, res) => json(res, 200, completion(`${r.body.messages.length}`));
      const driver = openai();
      const a = await driver.openConversation();
      await a.send('one');
      const b = await driver.openConversation();
      expect(await b.send('fresh')).toBe('1');
      expect(await a.send('two')).toBe('3');
    });

    it('reads a streamed answer chunk by chunk up to [DONE]', async () => {
      state.handler = (r, res) => {
        expect(r.body.stream).toBe(true);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const parts = ['Str', 'eam', 'ed ', 'ünïcode', ' answer'];
        let i = 0;
        const tick = () => {
          if (i < parts.length) {
            // split a chunk mid-line to prove the parser buffers
            const line = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: parts[i++] } }] })}\n\n`;
            res.write(line.slice(0, 10));
            res.write(line.slice(10));
            setTimeout(tick, 5);
          } else res.end('data: [DONE]\n\n');
        };
        tick();
      };
      const conversation = await openai({}, { stream: true }).openConversation();
      expect(await conversation.send('stream please')).toBe('Streamed ünïcode answer');
    });

    it('waits out a 429 with Retry-After (seconds) and then answers', async () => {
      state.handler = (_r, res, n) => (n === 1 ? json(res, 429, { error: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, completion('after the wait')));
      const conversation = await openai().openConversation();
      expect(await conversation.send('hi')).toBe('after the wait');
      expect(state.received).toHaveLength(2);
      // the backoff alone would be under 50 ms: the gap is the target's Retry-After
      expect(state.received[1].at - state.received[0].at).toBeGreaterThanOrEqual(950);
    });

    it('honours a Retry-After given as an HTTP date', async () => {
      state.handler = (_r, res, n) =>
        n === 1 ? json(res, 429, {}, { 'retry-after': new Date(Date.now() + 2_000).toUTCString() }) : json(res, 200, completion('ok'));
      const conversation = await openai().openConversation();
      expect(await conversation.send('hi')).toBe('ok');
      // an HTTP date has one-second precision; more than the backoff, less than the cap
      expect(state.received[1].at - state.received[0].at).toBeGreaterThanOrEqual(500);
    });

    it('retries 5xx and then gives up with TargetUnavailableError', async () => {
      state.handler = (_r, res) => json(res, 503, { error: `overloaded, key ${KEY}` });
      const err = await failure(openai().openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetUnavailableError);
      expect(err.message).toMatch(/did not answer after 3 attempt\(s\): HTTP 503/);
      expect(err.message).not.toContain(KEY);
      expect(state.received).toHaveLength(3);
    });

    it('recovers when a 500 is followed by an answer', async () => {
      state.handler = (_r, res, n) => (n < 3 ? json(res, 500, {}) : json(res, 200, completion('third time')));
      expect(await (await openai().openConversation()).send('hi')).toBe('third time');
    });

    it('ends a request that takes too long and reports TargetUnavailableError after the retries', async () => {
      state.handler = () => undefined; // never answers
      const err = await failure(openai({ timeoutMs: 150 }).openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetUnavailableError);
      expect(err.message).toMatch(/no answer within 150 ms/);
      expect(state.received).toHaveLength(3);
    });

    it('reports a target that is not listening as unavailable', async () => {
      const driver = track(new ApiFormatChatDriver(apiFormat('openai'), { url: 'http://127.0.0.1:9/v1/chat/completions', api_key: KEY }, fast));
      const err = await failure(driver.openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetUnavailableError);
      expect(err.message).toMatch(/network error \(ECONNREFUSED\)/);
    });

    it('turns 4xx into TargetProtocolError with the status, never the key', async () => {
      state.handler = (_r, res) => json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}` } });
      const err = await failure(openai().openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetProtocolError);
      expect(err.message).toMatch(/HTTP 401/);
      expect(err.message).not.toContain(KEY);
      expect(err.message).not.toContain(KEY.slice(3, 12));
      expect(state.received).toHaveLength(1);

      state.handler = (_r, res) => json(res, 400, { error: { message: `model not found (you sent ${KEY})` } });
      const bad = await failure(openai().openConversation().then((c) => c.send('hi')));
      expect(bad).toBeInstanceOf(TargetProtocolError);
      expect(bad.message).toMatch(/HTTP 400: .*model not found/);
      expect(bad.message).not.toContain(KEY);
    });

    it('says so when the answer is not an OpenAI completion', async () => {
      state.handler = (_r, res) => json(res, 200, { output: 'something else' });
      await expect(openai().openConversation().then((c) => c.send('hi'))).rejects.toThrow(TargetProtocolError);
    });

    it('refuses a loopback target unless private addresses are allowed, without connecting', async () => {
      state.handler = (_r, res) => json(res, 200, completion('should not be reached'));
      const err = await failure(openai({ allowPrivate: false }).openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetUnavailableError);
      expect(err.message).toMatch(/refused.*loopback/);
      expect(state.received).toHaveLength(0);
    });

    it('stops at once when the caller aborts', async () => {
      // the target takes the request and never answers; the caller aborts once it is in flight
      let arrived!: () => void;
      const inFlight = new Promise<void>((resolve) => (arrived = resolve));
      state.handler = () => arrived();
      const controller = new AbortController();
      const conversation = await openai({ timeoutMs: 5_000 }).openConversation();
      const sending = conversation.send('hi', { signal: controller.signal });
      await inFlight;
      controller.abort(new Error('scan cancelled'));
      await expect(sending).rejects.toThrow('scan cancelled');
      expect(state.received).toHaveLength(1);
    });

    it('paces requests of all conversations to max_requests_per_second', async () => {
      state.handler = (_r, res) => json(res, 200, completion('ok'));
      const driver = openai({ maxRequestsPerSecond: 10 });
      const conversations = await Promise.all([1, 2, 3].map(() => driver.openConversation()));
      const times = await departuresOf(() => Promise.all(conversations.flatMap((c) => [c.send('a'), c.send('b')])));
      expect(state.received).toHaveLength(6);
      // one pace for all three conversations: six departures, each 1/10 s after the one before
      expect(times).toHaveLength(6);
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(100);
    });

    it('does not pace when no rate is set', async () => {
      state.handler = (_r, res) => json(res, 200, completion('ok'));
      const driver = openai();
      const conversations = await Promise.all([1, 2, 3, 4].map(() => driver.openConversation()));
      const times = await departuresOf(() => Promise.all(conversations.map((c) => c.send('a'))));
      expect(state.received).toHaveLength(4);
      expect(times[3] - times[0]).toBeLessThan(400);
    });
  });

  describe('AnthropicChatDriver', () => {
    const anthropic = (stream = false) =>
      track(new ApiFormatChatDriver(apiFormat('anthropic'), { url: `${state.base}/v1/messages`, api_key: KEY, model: 'claude-test', stream }, fast));

    it('posts a Messages API request with x-api-key and anthropic-version, and reads content blocks', async () => {
      state.handler = (r, res) =>
        json(res, 200, {
          id: 'msg_1', type: 'message', role: 'assistant', stop_reason: 'end_turn',
          content: [{ type: 'text', text: `turns=${r.body.messages.length} ` }, { type: 'tool_use', id: 't', name: 'x', input: {} }, { type: 'text', text: 'done' }],
        });
      const conversation = await anthropic().openConversation();
      expect(await conversation.send('hello')).toBe('turns=1 done');
      expect(await conversation.send('more')).toBe('turns=3 done');
      expect(state.received[0].headers['x-api-key']).toBe(KEY);
      expect(state.received[0].headers['anthropic-version']).toBe('2023-06-01');
      expect(state.received[0].headers.authorization).toBeUndefined();
      expect(state.received[0].body).toEqual({ model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user', content: 'hello' }], stream: false });
      expect(state.received[1].body.messages[1]).toEqual({ role: 'assistant', content: 'turns=1 done' });
    });

    it('reads a streamed answer from its events', async () => {
      state.handler = (_r, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        const events: Array<[string, unknown]> = [
          ['message_start', { type: 'message_start', message: { id: 'msg_1', content: [] } }],
          ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
          ['ping', { type: 'ping' }],
          ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }],
          ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ', world' } }],
          ['content_block_stop', { type: 'content_block_stop', index: 0 }],
          ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' } }],
          ['message_stop', { type: 'message_stop' }],
        ];
        for (const [event, data] of events) res.write(`event: ${event}\r\ndata: ${JSON.stringify(data)}\r\n\r\n`);
        res.end();
      };
      expect(await (await anthropic(true).openConversation()).send('hi')).toBe('Hello, world');
      expect(state.received[0].body.stream).toBe(true);
    });

    it('waits out a 429 with Retry-After and then answers', async () => {
      state.handler = (_r, res, n) =>
        n === 1 ? json(res, 429, { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }, { 'retry-after': '1' }) : json(res, 200, { type: 'message', content: [{ type: 'text', text: 'later' }] });
      expect(await (await anthropic().openConversation()).send('hi')).toBe('later');
      expect(state.received[1].at - state.received[0].at).toBeGreaterThanOrEqual(950);
    });

    it('a refused key is a protocol error naming the status, never the key', async () => {
      state.handler = (_r, res) => json(res, 401, { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } });
      const err = await failure(anthropic().openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetProtocolError);
      expect(err.message).toMatch(/HTTP 401 \(check api_key\)/);
      expect(err.message).not.toContain(KEY);
    });

    it('treats a streamed overloaded_error as the target being unavailable', async () => {
      state.handler = (_r, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`);
      };
      const err = await failure(anthropic(true).openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetUnavailableError);
      expect(err.message).toMatch(/after 3 attempt\(s\): the target streamed an error: Overloaded/);
      expect(state.received).toHaveLength(3);
    });
  });

  describe('HttpJsonChatDriver', () => {
    const http = (body_template: string, response_path: string) =>
      track(new ApiFormatChatDriver(apiFormat('http'), { url: `${state.base}/api/chat?tenant=a`, api_key: KEY, http: { body_template, response_path } }, fast));

    it('fills {{prompt}} escaped inside a JSON string and reads the answer at response_path', async () => {
      state.handler = (r, res) => json(res, 200, { data: { replies: [{ text: `you said: ${r.body.input.question}` }] } });
      const conversation = await (http('{"input": {"question": "{{prompt}}"}, "session": "s1"}', 'data.replies.0.text')).openConversation();
      const tricky = 'quote " backslash \\ newline \n tab \t unicode ☃ and {{prompt}}';
      expect(await conversation.send(tricky)).toBe(`you said: ${tricky}`);
      expect(state.received[0].body).toEqual({ input: { question: tricky }, session: 's1' });
      expect(state.received[0].path).toBe('/api/chat?tenant=a');
      expect(state.received[0].headers.authorization).toBe(`Bearer ${KEY}`);
    });

    it('fills {{messages}} with the whole conversation', async () => {
      state.handler = (r, res) => json(res, 200, { choices: [{ message: { content: `${r.body.history.length} turns` } }] });
      const conversation = await (http('{"history": {{messages}}, "latest": "{{prompt}}"}', 'choices.0.message.content')).openConversation();
      expect(await conversation.send('first')).toBe('1 turns');
      expect(await conversation.send('second')).toBe('3 turns');
      expect(state.received[1].body).toEqual({
        history: [{ role: 'user', content: 'first' }, { role: 'assistant', content: '1 turns' }, { role: 'user', content: 'second' }],
        latest: 'second',
      });
    });

    it('names the response_path when the answer has nothing there', async () => {
      state.handler = (_r, res) => json(res, 200, { other: 'shape' });
      const err = await failure(http('{"q": "{{prompt}}"}', 'answer.text').openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetProtocolError);
      expect(err.message).toMatch(/response_path "answer.text"/);
    });

    it('joins a streamed answer read at response_path in each event', async () => {
      state.handler = (_r, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(['a', 'b', 'c'].map((t) => `data: {"token": "${t}"}\n\n`).join('') + 'data: [DONE]\n\n');
      };
      expect(await (await http('{"q": "{{prompt}}"}', 'token').openConversation()).send('hi')).toBe('abc');
    });
  });
  describe('state.base URLs and gateway headers', () => {
    const target = (api_format: 'openai' | 'anthropic', url: string, headers: Record<string, string> | null = null) =>
      track(createChatDriver({ scan_mode: 'api', api_format, url, api_key: KEY, model: 'm', http: null, browser: null, max_requests_per_second: null, headers }, fast));

    it('reaches chat completions from the state.base URL the OpenAI SDKs take, and from a bare host', async () => {
      state.handler = (_r, res) => json(res, 200, completion('ok'));
      expect(await (await target('openai', `${state.base}/v1`).openConversation()).send('hi')).toBe('ok');
      expect(await (await target('openai', `${state.base}/v1/`).openConversation()).send('hi')).toBe('ok');
      expect(await (await target('openai', state.base).openConversation()).send('hi')).toBe('ok');
      expect(state.received.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions']);
    });

    it('reaches the Messages API from .../v1', async () => {
      state.handler = (_r, res) => json(res, 200, { type: 'message', content: [{ type: 'text', text: 'ok' }] });
      expect(await (await target('anthropic', `${state.base}/v1`).openConversation()).send('hi')).toBe('ok');
      expect(state.received[0].path).toBe('/v1/messages');
    });

    it('sends custom headers on every request, over the format\'s own, and never quotes them', async () => {
      const gatewayToken = 'gw-secret-token-987654';
      state.handler = (r, res, n) => (n === 1 ? json(res, 200, completion('ok')) : json(res, 400, { error: `bad gateway token ${gatewayToken}` }));
      const driver = target('openai', `${state.base}/v1`, { 'x-gateway-token': gatewayToken, authorization: 'Bearer gateway-wide' });
      const conversation = await driver.openConversation();
      expect(await conversation.send('hi')).toBe('ok');
      expect(state.received[0].headers['x-gateway-token']).toBe(gatewayToken);
      expect(state.received[0].headers.authorization).toBe('Bearer gateway-wide');
      const err = await failure(conversation.send('again'));
      expect(err.message).toMatch(/HTTP 400/);
      expect(err.message).not.toContain(gatewayToken);
    });
  });

  describe('a custom header named like the format\'s key header, in another case', () => {
    const target = (api_format: 'openai' | 'anthropic', headers: Record<string, string>) =>
      track(createChatDriver({ scan_mode: 'api', api_format, url: `${state.base}/v1`, api_key: KEY, model: 'm', http: null, browser: null, max_requests_per_second: null, headers }, fast));

    it.each([
      ['openai', 'Authorization', 'authorization', 'Bearer gateway-wide'],
      ['anthropic', 'X-API-KEY', 'x-api-key', 'gateway-key'],
    ] as const)('%s: %s replaces the built-in %s instead of going beside it', async (format, custom, builtIn, value) => {
      state.handler = (_r, res) => json(res, 200, format === 'openai' ? completion('ok') : { content: [{ type: 'text', text: 'ok' }] });
      await (await target(format, { [custom]: value }).openConversation()).send('hi');
      // one header of that name reached the server, the gateway's (Node keeps the first of two authorizations and joins other duplicates)
      expect(state.received[0].headers[builtIn]).toBe(value);
    });
  });

  describe('pacing learnt from the target', () => {
    it('a 429 holds back every conversation for its Retry-After, not only the refused one', async () => {
      state.handler = (_r, res, n) => (n === 1 ? json(res, 429, {}, { 'retry-after-ms': '600' }) : json(res, 200, completion('ok')));
      const driver = openai();
      const first = await driver.openConversation();
      const refused = first.send('a');
      // the second conversation starts once the first has been refused
      while (state.received.length < 1) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 50));
      const other = (await driver.openConversation()).send('b');
      await Promise.all([refused, other]);
      const [, ...after] = state.received;
      for (const r of after) expect(r.at - state.received[0].at).toBeGreaterThanOrEqual(580);
    });

    it('a target that keeps refusing with Retry-After fails the request after a bounded number of waits', async () => {
      state.handler = (_r, res) => json(res, 429, {}, { 'retry-after-ms': '10' });
      const err = await failure(openai().openConversation().then((c) => c.send('hi')));
      expect(err).toBeInstanceOf(TargetUnavailableError);
      expect(err.message).toMatch(/HTTP 429.*refused 3 times/);
      expect(state.received).toHaveLength(3);
    });
  });
});
