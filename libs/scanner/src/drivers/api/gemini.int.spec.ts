import { TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { createChatDriver } from '../create-chat-driver';
import { ask, failure, FAST, fakeApi, json, KEY, sse } from './testing/fake-api';

const answer = (text: string) => ({ candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }], usageMetadata: { totalTokenCount: 3 } });

describe('Gemini generateContent against a local fake server', () => {
  const api = fakeApi();
  const gemini = (stream = false, url = `${api.state.base}/v1beta`, model: string | null = 'gemini-test') =>
    api.track(createChatDriver({ scan_mode: 'api', api_format: 'gemini', url, api_key: KEY, model, http: null, browser: null, max_requests_per_second: null, stream }, FAST));

  it('posts contents with roles user and model to models/{model}:generateContent, the key in x-goog-api-key', async () => {
    api.state.handler = (r, res) => json(res, 200, answer(`turns=${r.body.contents.length}`));
    const conversation = await gemini().openConversation();
    expect(await conversation.send('hello')).toBe('turns=1');
    expect(await conversation.send('again')).toBe('turns=3');
    const [first, second] = api.state.received;
    expect(first.path).toBe('/v1beta/models/gemini-test:generateContent');
    expect(first.headers['x-goog-api-key']).toBe(KEY);
    // never in the query string, where access logs would keep it
    expect(first.path).not.toContain(KEY);
    expect(first.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] });
    expect(second.body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'turns=1' }] });
  });

  it('streams from streamGenerateContent?alt=sse and joins the chunks, leaving out thoughts', async () => {
    api.state.handler = (_r, res) =>
      sse(res, [
        { data: { candidates: [{ content: { role: 'model', parts: [{ text: 'thinking…', thought: true }] } }] } },
        { data: answer('Str') },
        { data: answer('eamed') },
      ]);
    expect(await ask(gemini(true, `${api.state.base}/v1beta/models/gemini-test`, null))).toBe('Streamed');
    expect(api.state.received[0].path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
  });

  it('reads a prompt the API blocked as the target refusing', async () => {
    api.state.handler = (_r, res) => json(res, 200, { promptFeedback: { blockReason: 'SAFETY' } });
    expect(await ask(gemini())).toMatch(/blocked.*SAFETY/);
  });

  it('a 400 is a protocol error with what the API said; an error streamed as unavailable is unavailable', async () => {
    api.state.handler = (_r, res) => json(res, 400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } });
    const bad = await failure(ask(gemini()));
    expect(bad).toBeInstanceOf(TargetProtocolError);
    expect(bad.message).toMatch(/HTTP 400: .*API key not valid/);

    api.state.handler = (_r, res) => sse(res, [{ data: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } }]);
    const down = await failure(ask(gemini(true)));
    expect(down).toBeInstanceOf(TargetUnavailableError);
    expect(down.message).toMatch(/overloaded/);
  });

  it('waits out a 429 with Retry-After and then answers', async () => {
    api.state.handler = (_r, res, n) =>
      n === 1 ? json(res, 429, { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'quota' } }, { 'retry-after': '1' }) : json(res, 200, answer('later'));
    expect(await ask(gemini())).toBe('later');
    expect(api.state.received[1].at - api.state.received[0].at).toBeGreaterThanOrEqual(950);
  });
});
