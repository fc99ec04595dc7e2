import { AgentCall, AgentMessage } from './agent-brain';
import { OfferedTool } from './tool-reading';

/**
 * The two tool-calling wire forms the agent lab speaks, read into one conversation and written
 * back: OpenAI chat completions (`tools`, `tool_choice`, assistant `tool_calls`, `role: "tool"`
 * results) and Anthropic messages (`tools` with `input_schema`, `tool_use` and `tool_result` blocks).
 */
export class WireError extends Error {}

export interface AgentRequest {
  messages: AgentMessage[];
  tools: OfferedTool[];
  toolChoice: 'auto' | 'none' | 'required' | { name: string };
  stream: boolean;
}

const text = (content: unknown): string => {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  throw new WireError('message content must be a string or an array of text parts');
};

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function parsedArguments(raw: unknown): Record<string, unknown> | string {
  if (raw && typeof raw === 'object') return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : raw;
  } catch {
    return raw;
  }
}

function tool(name: unknown, description: unknown, parameters: unknown): OfferedTool {
  if (typeof name !== 'string' || !name) throw new WireError('every tool needs a name');
  return { name, description: typeof description === 'string' ? description : '', parameters: obj(parameters) };
}

export function readOpenAi(body: Record<string, unknown>): AgentRequest {
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw new WireError('messages must be a non-empty array');
  const messages: AgentMessage[] = body.messages.map((raw) => {
    const m = obj(raw);
    switch (m.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: text(m.content) };
      case 'user':
        return { role: 'user', content: text(m.content) };
      case 'assistant': {
        const calls: AgentCall[] = Array.isArray(m.tool_calls)
          ? m.tool_calls.map((c) => {
              const call = obj(c);
              const fn = obj(call.function);
              return { id: String(call.id ?? ''), name: String(fn.name ?? ''), arguments: parsedArguments(fn.arguments) };
            })
          : m.function_call
            ? [{ id: '', name: String(obj(m.function_call).name ?? ''), arguments: parsedArguments(obj(m.function_call).arguments) }]
            : [];
        return { role: 'assistant', content: text(m.content), ...(calls.length ? { calls } : {}) };
      }
      case 'tool':
      case 'function':
        return { role: 'tool', content: text(m.content), callId: String(m.tool_call_id ?? ''), ...(typeof m.name === 'string' ? { name: m.name } : {}) };
      default:
        throw new WireError('message role must be system, developer, user, assistant or tool');
    }
  });
  const tools = [
    ...(Array.isArray(body.tools) ? body.tools : []).map((t) => {
      const fn = obj(obj(t).function);
      return tool(fn.name, fn.description, fn.parameters);
    }),
    ...(Array.isArray(body.functions) ? body.functions : []).map((f) => tool(obj(f).name, obj(f).description, obj(f).parameters)),
  ];
  if (body.tools !== undefined && !Array.isArray(body.tools)) throw new WireError('tools must be an array');
  const choice = body.tool_choice;
  const toolChoice: AgentRequest['toolChoice'] =
    choice === 'none' || choice === 'required' || choice === 'auto' ? choice : choice && typeof choice === 'object' ? { name: String(obj(obj(choice).function).name ?? '') } : 'auto';
  return { messages, tools, toolChoice, stream: body.stream === true };
}

export function readAnthropic(body: Record<string, unknown>): AgentRequest {
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw new WireError('messages must be a non-empty array');
  const messages: AgentMessage[] = [];
  const system = body.system === undefined ? '' : text(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const raw of body.messages) {
    const m = obj(raw);
    if (m.role !== 'user' && m.role !== 'assistant') throw new WireError('message role must be user or assistant');
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content.map(obj) : null;
    if (!blocks) throw new WireError('message content must be a string or an array of blocks');
    if (m.role === 'assistant') {
      const calls = blocks.filter((b) => b.type === 'tool_use').map((b) => ({ id: String(b.id ?? ''), name: String(b.name ?? ''), arguments: parsedArguments(b.input) }));
      messages.push({ role: 'assistant', content: text(blocks.filter((b) => b.type === 'text')), ...(calls.length ? { calls } : {}) });
      continue;
    }
    // a user turn carries the results of the calls before it, then (perhaps) what the user wrote
    for (const b of blocks.filter((b) => b.type === 'tool_result')) messages.push({ role: 'tool', content: text(b.content), callId: String(b.tool_use_id ?? '') });
    const said = text(blocks.filter((b) => b.type === 'text'));
    if (said || !blocks.some((b) => b.type === 'tool_result')) messages.push({ role: 'user', content: said });
  }
  if (body.tools !== undefined && !Array.isArray(body.tools)) throw new WireError('tools must be an array');
  // server tools (web search and the like) have a type and no input_schema: they are not the agent's to call
  const tools = (Array.isArray(body.tools) ? body.tools : []).map(obj).filter((t) => t.input_schema !== undefined || t.type === undefined || t.type === 'custom').map((t) => tool(t.name, t.description, t.input_schema));
  const choice = obj(body.tool_choice);
  const toolChoice: AgentRequest['toolChoice'] = choice.type === 'none' ? 'none' : choice.type === 'any' ? 'required' : choice.type === 'tool' ? { name: String(choice.name ?? '') } : 'auto';
  return { messages, tools, toolChoice, stream: body.stream === true };
}

/** what the agent answers: text, calls, or both */
export interface AgentReply {
  text: string | null;
  calls: { id: string; name: string; arguments: Record<string, unknown> }[];
}

const sse = (o: unknown, name?: string) => `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(o)}\n\n`;

/** OpenAI: the completion body, or the stream's events (tool calls streamed as a name, then argument pieces) */
export function writeOpenAi(reply: AgentReply, id: string, model: string, stream: boolean): { json?: unknown; events?: string[] } {
  const created = Math.floor(Date.now() / 1000);
  const finish = reply.calls.length ? 'tool_calls' : 'stop';
  const toolCalls = reply.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
  if (!stream) {
    return {
      json: {
        id, object: 'chat.completion', created, model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.text, ...(toolCalls.length ? { tool_calls: toolCalls } : {}), refusal: null }, finish_reason: finish }],
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      },
    };
  }
  const chunk = (delta: object, finishReason: string | null) => sse({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  const events = [chunk({ role: 'assistant', content: reply.calls.length && !reply.text ? null : '' }, null)];
  for (const part of reply.text?.match(/\S+\s*|\s+/g) ?? []) events.push(chunk({ content: part }, null));
  reply.calls.forEach((c, index) => {
    const args = JSON.stringify(c.arguments);
    events.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }, null));
    for (let i = 0; i < args.length; i += 24) events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(i, i + 24) } }] }, null));
  });
  events.push(chunk({}, finish), 'data: [DONE]\n\n');
  return { events };
}

/** Anthropic: the message body, or the stream's events (tool input streamed as input_json_delta) */
export function writeAnthropic(reply: AgentReply, id: string, model: string, stream: boolean): { json?: unknown; events?: string[] } {
  const stop = reply.calls.length ? 'tool_use' : 'end_turn';
  const blocks: Record<string, unknown>[] = [...(reply.text ? [{ type: 'text', text: reply.text }] : []), ...reply.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments }))];
  const usage = { input_tokens: 0, output_tokens: 0 };
  if (!stream) return { json: { id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stop, stop_sequence: null, usage } };
  const events = [sse({ type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } }, 'message_start')];
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      events.push(sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
      for (const part of String(b.text).match(/\S+\s*|\s+/g) ?? []) events.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } }, 'content_block_delta'));
    } else {
      events.push(sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } }, 'content_block_start'));
      const args = JSON.stringify(b.input);
      for (let i = 0; i < args.length; i += 24) events.push(sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: args.slice(i, i + 24) } }, 'content_block_delta'));
    }
    events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  events.push(sse({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 0 } }, 'message_delta'), sse({ type: 'message_stop' }, 'message_stop'));
  return { events };
}
