import { AZURE_OPENAI_API_VERSION } from '@gauntlet/domain';
import { TargetProtocolError } from '../../chat-driver';
import { createChatDriver } from '../create-chat-driver';
import { ask, failure, FAST, fakeApi, json, KEY, sse } from './testing/fake-api';

const completion = (content: string) => ({ id: 'c1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

describe('Azure OpenAI against a local fake deployment', () => {
  const api = fakeApi();
  const azure = (stream = false, url = `${api.state.base}/openai/deployments/gpt4o`) =>
    api.track(createChatDriver({ scan_mode: 'api', api_format: 'azure-openai', url, api_key: KEY, model: null, http: null, browser: null, max_requests_per_second: null, stream }, FAST));

  it('calls the deployment chat/completions with an api-version and the key in api-key', async () => {
    api.state.handler = (r, res) => json(res, 200, completion(`turns=${r.body.messages.length}`));
    const conversation = await azure().openConversation();
    expect(await conversation.send('hello')).toBe('turns=1');
    expect(await conversation.send('again')).toBe('turns=3');
    const [first] = api.state.received;
    expect(first.path).toBe(`/openai/deployments/gpt4o/chat/completions?api-version=${AZURE_OPENAI_API_VERSION}`);
    expect(first.headers['api-key']).toBe(KEY);
    expect(first.headers.authorization).toBeUndefined();
    expect(first.body).toEqual({ messages: [{ role: 'user', content: 'hello' }], stream: false });
  });

  it('keeps an api-version the URL names, and reads a streamed answer', async () => {
    api.state.handler = (r, res) => {
      expect(r.body.stream).toBe(true);
      sse(res, ['Str', 'eamed'].map((content) => ({ data: { choices: [{ index: 0, delta: { content } }] } })), 'data: [DONE]\n\n');
    };
    expect(await ask(azure(true, `${api.state.base}/openai/deployments/gpt4o/chat/completions?api-version=2025-01-01-preview`))).toBe('Streamed');
    expect(api.state.received[0].path).toBe('/openai/deployments/gpt4o/chat/completions?api-version=2025-01-01-preview');
  });

  it('a refused key is a protocol error naming the status, never the key', async () => {
    api.state.handler = (_r, res) => json(res, 401, { error: { code: '401', message: `Access denied due to invalid subscription key ${KEY}` } });
    const err = await failure(ask(azure()));
    expect(err).toBeInstanceOf(TargetProtocolError);
    expect(err.message).toMatch(/HTTP 401 \(check api_key\)/);
    expect(err.message).not.toContain(KEY);
    expect(err.failure).toMatchObject({ kind: 'http', status: 401 });
  });

  it('waits out a 429 for the retry-after-ms Azure sends, then answers', async () => {
    api.state.handler = (_r, res, n) => (n === 1 ? json(res, 429, { error: { code: '429' } }, { 'retry-after-ms': '400', 'retry-after': '1' }) : json(res, 200, completion('after the wait')));
    expect(await ask(azure())).toBe('after the wait');
    expect(api.state.received).toHaveLength(2);
    // the finer retry-after-ms is honoured rather than the rounded-up second
    const gap = api.state.received[1].at - api.state.received[0].at;
    expect(gap).toBeGreaterThanOrEqual(380);
  });
});
