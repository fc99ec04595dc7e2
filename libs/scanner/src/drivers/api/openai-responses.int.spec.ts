import { TargetProtocolError } from '../../chat-driver';
import { createChatDriver } from '../create-chat-driver';
import { ask, failure, FAST, fakeApi, json, KEY, sse } from './testing/fake-api';

const response = (text: string) => ({
  id: 'resp_1', object: 'response', status: 'completed',
  output: [
    { type: 'reasoning', id: 'rs_1', summary: [] },
    { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] },
  ],
});

describe('OpenAI Responses API against a local fake server', () => {
  const api = fakeApi();
  const responses = (stream = false, url = `${api.state.base}/v1`) =>
    api.track(createChatDriver({ scan_mode: 'api', api_format: 'openai-responses', url, api_key: KEY, model: 'gpt-test', http: null, browser: null, max_requests_per_second: null, stream }, FAST));

  it('posts the history as input to /v1/responses from the base URL, storing nothing server-side', async () => {
    api.state.handler = (r, res) => json(res, 200, response(`turns=${r.body.input.length}`));
    const conversation = await responses().openConversation();
    expect(await conversation.send('hello')).toBe('turns=1');
    expect(await conversation.send('again')).toBe('turns=3');
    const [first, second] = api.state.received;
    expect(first.path).toBe('/v1/responses');
    expect(first.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first.body).toEqual({ model: 'gpt-test', input: [{ role: 'user', content: 'hello' }], stream: false, store: false });
    expect(second.body.input[1]).toEqual({ role: 'assistant', content: 'turns=1' });
  });

  it('reads a streamed answer from its output_text deltas up to response.completed', async () => {
    api.state.handler = (_r, res) =>
      sse(res, [
        { event: 'response.created', data: { type: 'response.created', response: { id: 'resp_1' } } },
        { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Str' } },
        { event: 'response.output_text.delta', data: { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'eamed' } },
        { event: 'response.output_text.done', data: { type: 'response.output_text.done', text: 'Streamed' } },
        { event: 'response.completed', data: { type: 'response.completed', response: response('Streamed') } },
      ]);
    expect(await ask(responses(true, `${api.state.base}/v1/responses`))).toBe('Streamed');
    expect(api.state.received[0].body.stream).toBe(true);
  });

  it('says so when the answer is a chat completion instead, naming that format', async () => {
    api.state.handler = (_r, res) => json(res, 200, { choices: [{ message: { role: 'assistant', content: 'x' } }] });
    const err = await failure(ask(responses()));
    expect(err).toBeInstanceOf(TargetProtocolError);
    expect(err.failure).toMatchObject({ kind: 'unreadable', looksLike: 'openai' });
  });

  it('a streamed error event is a protocol error with its message', async () => {
    api.state.handler = (_r, res) => sse(res, [{ event: 'error', data: { type: 'error', code: 'invalid_prompt', message: 'Invalid prompt' } }]);
    const err = await failure(ask(responses(true)));
    expect(err).toBeInstanceOf(TargetProtocolError);
    expect(err.message).toMatch(/Invalid prompt/);
  });

  it('waits out a 429 with Retry-After and then answers', async () => {
    api.state.handler = (_r, res, n) => (n === 1 ? json(res, 429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '1' }) : json(res, 200, response('later')));
    expect(await ask(responses())).toBe('later');
    expect(api.state.received[1].at - api.state.received[0].at).toBeGreaterThanOrEqual(950);
  });
});
