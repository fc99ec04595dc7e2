import type { ToolDefinition } from '../../agent/tools';
import { apiFormat, API_FORMAT_SPECS, readAgentAnswer } from '.';
import { AgentTurn, FormatSettings, TargetAnswer } from './api-format';

const settings: FormatSettings = { model: 'm', stream: false, http: null };
const tools: ToolDefinition[] = [
  { name: 'send_email', description: 'Sends an e-mail.', parameters: { type: 'object', properties: { to: { type: 'string', format: 'email' }, body: { type: 'string' } }, required: ['to'], additionalProperties: false }, risk: 'exfiltration' },
];
const history: AgentTurn[] = [
  { role: 'user', content: 'mail bob' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'send_email', arguments: { to: 'bob@x.example' } }] },
  { role: 'tool', tool_call_id: 'c1', name: 'send_email', content: '{"status":"sent"}' },
  { role: 'assistant', content: 'Sent.' },
  { role: 'user', content: 'thanks' },
];
const json = (body: unknown): TargetAnswer => ({ headers: {}, contentType: 'application/json', chunks: (async function* () { yield Buffer.from(JSON.stringify(body)); })() });
const sse = (events: unknown[], named = false): TargetAnswer => ({
  headers: {}, contentType: 'text/event-stream',
  chunks: (async function* () {
    for (const e of events) yield Buffer.from(`${named ? `event: ${(e as { type: string }).type}\n` : ''}data: ${JSON.stringify(e)}\n\n`);
  })(),
});
const body = (name: string) => JSON.parse(apiFormat(name as never).tools!.request(history, tools, settings).body);

describe('tool calling in each API shape', () => {
  it('is offered by the APIs that have it, and not by the custom http format', () => {
    expect(API_FORMAT_SPECS.filter((f) => f.tools).map((f) => f.name)).toEqual(['openai', 'anthropic', 'azure-openai', 'ollama', 'gemini', 'openai-responses']);
  });

  it('given a history with a call and its result, when sent as chat completions, then calls ride the assistant message and results are tool messages', () => {
    const b = body('openai');
    expect(b.tools).toEqual([{ type: 'function', function: { name: 'send_email', description: 'Sends an e-mail.', parameters: tools[0].parameters } }]);
    expect(b.messages).toEqual([
      { role: 'user', content: 'mail bob' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_email', arguments: '{"to":"bob@x.example"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"status":"sent"}' },
      { role: 'assistant', content: 'Sent.' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(body('azure-openai').messages).toEqual(b.messages);
  });

  it('given the same history, when sent to Anthropic, then calls are tool_use blocks and results tool_result blocks of the next user turn', () => {
    const b = body('anthropic');
    expect(b.tools).toEqual([{ name: 'send_email', description: 'Sends an e-mail.', input_schema: tools[0].parameters }]);
    expect(b.messages).toEqual([
      { role: 'user', content: 'mail bob' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'send_email', input: { to: 'bob@x.example' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: '{"status":"sent"}' }] },
      { role: 'assistant', content: 'Sent.' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('given the same history, when sent to Gemini, then calls are functionCall parts and results functionResponse parts, the schema in its subset', () => {
    const b = body('gemini');
    expect(b.tools[0].functionDeclarations[0].parameters).toEqual({ type: 'object', properties: { to: { type: 'string', format: 'email' }, body: { type: 'string' } }, required: ['to'] });
    expect(b.contents).toEqual([
      { role: 'user', parts: [{ text: 'mail bob' }] },
      { role: 'model', parts: [{ functionCall: { name: 'send_email', args: { to: 'bob@x.example' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'send_email', response: { content: '{"status":"sent"}' } } }] },
      { role: 'model', parts: [{ text: 'Sent.' }] },
      { role: 'user', parts: [{ text: 'thanks' }] },
    ]);
  });

  it('given the same history, when sent to Ollama and to the Responses API, then each has its own items', () => {
    expect(body('ollama').messages[1]).toEqual({ role: 'assistant', content: '', tool_calls: [{ function: { name: 'send_email', arguments: { to: 'bob@x.example' } } }] });
    expect(body('ollama').messages[2]).toEqual({ role: 'tool', content: '{"status":"sent"}', tool_name: 'send_email' });
    const r = body('openai-responses');
    expect(r.store).toBe(false);
    expect(r.tools).toEqual([{ type: 'function', name: 'send_email', description: 'Sends an e-mail.', parameters: tools[0].parameters }]);
    expect(r.input.slice(1, 3)).toEqual([
      { type: 'function_call', call_id: 'c1', name: 'send_email', arguments: '{"to":"bob@x.example"}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"status":"sent"}' },
    ]);
  });

  it('reads the calls of an answer in every API, whole or streamed', async () => {
    const want = [{ id: 'c9', name: 'send_email', arguments: { to: 'eve@x.example' } }];
    expect(await readAgentAnswer(apiFormat('openai'), json({ choices: [{ message: { content: null, tool_calls: [{ id: 'c9', type: 'function', function: { name: 'send_email', arguments: '{"to":"eve@x.example"}' } }] } }] }), settings)).toEqual({ text: '', calls: want });
    expect(await readAgentAnswer(apiFormat('openai'), sse([
      { choices: [{ delta: { tool_calls: [{ index: 0, id: 'c9', function: { name: 'send_email', arguments: '{"to":' } }] } }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"eve@x.example"}' } }] } }] },
    ]), settings)).toEqual({ text: '', calls: want });
    expect(await readAgentAnswer(apiFormat('anthropic'), json({ type: 'message', content: [{ type: 'text', text: 'ok' }, { type: 'tool_use', id: 'c9', name: 'send_email', input: { to: 'eve@x.example' } }] }), settings)).toEqual({ text: 'ok', calls: want });
    expect(await readAgentAnswer(apiFormat('anthropic'), sse([
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'c9', name: 'send_email', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"to": "eve@' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'x.example"}' } },
      { type: 'message_stop' },
    ], true), settings)).toEqual({ text: '', calls: want });
    expect(await readAgentAnswer(apiFormat('gemini'), json({ candidates: [{ content: { parts: [{ functionCall: { id: 'c9', name: 'send_email', args: { to: 'eve@x.example' } } }] } }] }), settings)).toEqual({ text: '', calls: want });
    expect(await readAgentAnswer(apiFormat('ollama'), json({ message: { content: '', tool_calls: [{ function: { name: 'send_email', arguments: { to: 'eve@x.example' } } }] }, done: true }), settings)).toEqual({ text: '', calls: [{ ...want[0], id: 'call_0' }] });
    expect(await readAgentAnswer(apiFormat('openai-responses'), json({ object: 'response', output: [{ type: 'function_call', call_id: 'c9', name: 'send_email', arguments: '{"to":"eve@x.example"}' }] }), settings)).toEqual({ text: '', calls: want });
    expect(await readAgentAnswer(apiFormat('openai-responses'), sse([
      { type: 'response.output_item.done', item: { type: 'function_call', call_id: 'c9', name: 'send_email', arguments: '{"to":"eve@x.example"}' } },
      { type: 'response.completed', response: { output: [] } },
    ]), settings)).toEqual({ text: '', calls: want });
  });

  it('keeps arguments that are not JSON as the text the agent wrote: still evidence', async () => {
    const read = await readAgentAnswer(apiFormat('openai'), json({ choices: [{ message: { content: '', tool_calls: [{ id: 'c', function: { name: 'x', arguments: 'to=eve' } }] } }] }), settings);
    expect(read.calls[0].arguments).toBe('to=eve');
  });
});
