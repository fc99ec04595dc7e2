import { TargetProtocolError } from '../../chat-driver';
import { createChatDriver } from '../create-chat-driver';
import { ask, failure, FAST, fakeApi, json, KEY } from './testing/fake-api';

describe('Ollama native /api/chat against a local fake server', () => {
  const api = fakeApi();
  const ollama = (stream = false, url = api.state.base) =>
    api.track(createChatDriver({ scan_mode: 'api', api_format: 'ollama', url, api_key: null, model: 'llama3.2', http: null, browser: null, max_requests_per_second: null, stream }, FAST));

  it('posts {model, messages, stream: false} to /api/chat from the server address and reads message.content', async () => {
    api.state.handler = (r, res) => json(res, 200, { model: 'llama3.2', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: `turns=${r.body.messages.length}` }, done: true, done_reason: 'stop' });
    const conversation = await ollama().openConversation();
    expect(await conversation.send('hello')).toBe('turns=1');
    expect(await conversation.send('again')).toBe('turns=3');
    expect(api.state.received[0].path).toBe('/api/chat');
    // Ollama streams unless told not to: the driver always says
    expect(api.state.received[0].body).toEqual({ model: 'llama3.2', messages: [{ role: 'user', content: 'hello' }], stream: false });
    expect(api.state.received[1].body.messages[1]).toEqual({ role: 'assistant', content: 'turns=1' });
  });

  it('reads a streamed answer as JSON lines cut anywhere', async () => {
    api.state.handler = (r, res) => {
      expect(r.body.stream).toBe(true);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const lines = ['Str', 'eamed ', 'ünï'].map((content) => JSON.stringify({ model: 'llama3.2', message: { role: 'assistant', content }, done: false }) + '\n').join('')
        + JSON.stringify({ model: 'llama3.2', message: { role: 'assistant', content: '' }, done: true }) + '\n';
      const bytes = Buffer.from(lines);
      // one cut inside a line and one inside a UTF-8 sequence
      const cut = bytes.indexOf(Buffer.from('ü')) + 1;
      res.write(bytes.subarray(0, 20));
      res.write(bytes.subarray(20, cut));
      res.end(bytes.subarray(cut));
    };
    expect(await ask(ollama(true, `${api.state.base}/api`))).toBe('Streamed ünï');
    expect(api.state.received[0].path).toBe('/api/chat');
  });

  it('says what Ollama answered when the model is missing', async () => {
    api.state.handler = (_r, res) => json(res, 404, { error: "model 'llama3.2' not found, try pulling it first" });
    const err = await failure(ask(ollama()));
    expect(err).toBeInstanceOf(TargetProtocolError);
    expect(err.message).toMatch(/HTTP 404: .*not found/);
  });

  it('sends a key, when there is one, as a bearer token for the proxy in front', async () => {
    api.state.handler = (_r, res) => json(res, 200, { message: { role: 'assistant', content: 'ok' }, done: true });
    const driver = api.track(createChatDriver({ scan_mode: 'api', api_format: 'ollama', url: api.state.base, api_key: KEY, model: 'm', http: null, browser: null, max_requests_per_second: null }, FAST));
    expect(await ask(driver)).toBe('ok');
    expect(api.state.received[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('waits out a 429 with Retry-After and then answers', async () => {
    api.state.handler = (_r, res, n) => (n === 1 ? json(res, 429, { error: 'busy' }, { 'retry-after': '1' }) : json(res, 200, { message: { role: 'assistant', content: 'later' }, done: true }));
    expect(await ask(ollama())).toBe('later');
    expect(api.state.received[1].at - api.state.received[0].at).toBeGreaterThanOrEqual(950);
  });
});
