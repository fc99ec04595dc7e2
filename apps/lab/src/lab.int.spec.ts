import { startLab } from './lab';

describe('lab HTTP surface', () => {
  it('serves OpenAI chat completions (plain and streamed), models, Anthropic messages and the chat page', async () => {
    const lab = await startLab({ mode: 'hardened' });
    try {
      const post = (path: string, body: unknown) => fetch(lab.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const plain = await (await post('/v1/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'Hello' }] })).json();
      expect(plain.choices[0].message.content).toMatch(/Penny/);

      const streamed = await post('/v1/chat/completions', { model: 'm', stream: true, messages: [{ role: 'user', content: 'Hello' }] });
      expect(streamed.headers.get('content-type')).toBe('text/event-stream');
      const events = (await streamed.text()).split('\n\n').filter(Boolean);
      expect(events[events.length - 1]).toBe('data: [DONE]');
      const text = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)).choices[0].delta.content ?? '').join('');
      expect(text).toBe(plain.choices[0].message.content);
      expect(events.length).toBeGreaterThan(5); // word by word

      expect((await (await fetch(`${lab.url}/v1/models`)).json()).data[0].id).toBe('penny-lab');
      const anthropic = await (await post('/v1/messages', { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }] })).json();
      expect(anthropic.content[0].text).toBe(plain.choices[0].message.content);
      const page = await (await fetch(lab.url)).text();
      expect(page).toContain('<textarea id="message"');
      expect(page).toContain('<button id="send"');
      expect((await post('/v1/chat/completions', { messages: 'nope' })).status).toBe(400);
    } finally {
      await lab.close();
    }
  });

  it('stops answering after LAB_FAIL_AFTER requests', async () => {
    const lab = await startLab({ failAfter: 2 });
    try {
      const send = () => fetch(`${lab.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) });
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(200);
      expect((await send()).status).toBe(503);
    } finally {
      await lab.close();
    }
  });
});
