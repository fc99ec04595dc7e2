import { TargetProtocolError, TargetUnavailableError } from '../target-errors';
import type { ToolDefinition } from '../../agent/tools';
import { AgentAnswer, AgentTurn, ApiFormatSpec, completePath, FormatSettings, parsedArguments, TargetAnswer } from './api-format';
import { answerJson, isEventStream, streamedJson, UnrecognisedAnswer } from './answers';
import { readServerSentEventsPerChunk } from './server-sent-events';

export const ANTHROPIC_VERSION = '2023-06-01';
/** required by the Messages API */
const MAX_TOKENS = 1024;

/** Anthropic's Messages API (and compatible gateways). */
export const anthropic: ApiFormatSpec<'anthropic'> = {
  name: 'anthropic',
  label: 'Anthropic Messages',
  description: 'Messages API (.../v1 or .../v1/messages)',
  urlShape: 'https://host/v1 or the full endpoint .../v1/messages',
  key: { header: 'x-api-key' },
  endpoint: (typed) => completePath(typed, '/messages', '/v1/messages'),
  alternativeTail: /\/messages$/,
  recognises: (json) => json.type === 'message' && Array.isArray(json.content),
  request: (turns, { model, stream }) => ({
    headers: { 'anthropic-version': ANTHROPIC_VERSION },
    body: JSON.stringify({ ...(model ? { model } : {}), max_tokens: MAX_TOKENS, messages: turns, stream }),
  }),
  read: readAnthropicAnswer,
  tools: { request: toolsRequest, read: readAnthropicAgentAnswer },
};

/**
 * Messages with tools: the agent's calls are `tool_use` blocks of its turn, our results
 * `tool_result` blocks of the user turn after it (with any next user text in the same turn: the
 * API alternates user and assistant).
 */
function toolsRequest(turns: readonly AgentTurn[], tools: readonly ToolDefinition[], { model, stream }: FormatSettings) {
  const messages: Array<{ role: 'user' | 'assistant'; content: unknown }> = [];
  const userBlocks = (t: AgentTurn) => (t.role === 'tool' ? [{ type: 'tool_result', tool_use_id: t.tool_call_id, content: t.content }] : [{ type: 'text', text: t.content }]);
  for (const t of turns) {
    if (t.role === 'assistant') {
      const content = t.tool_calls?.length
        ? [...(t.content ? [{ type: 'text', text: t.content }] : []), ...t.tool_calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: typeof c.arguments === 'string' ? { input: c.arguments } : c.arguments }))]
        : t.content;
      messages.push({ role: 'assistant', content });
      continue;
    }
    const last = messages[messages.length - 1];
    // a user turn after a result joins it; a plain user turn stays plain text, as without tools
    if (last?.role === 'user' && Array.isArray(last.content)) last.content.push(...userBlocks(t));
    else if (last?.role === 'user') last.content = [{ type: 'text', text: last.content }, ...userBlocks(t)];
    else messages.push({ role: 'user', content: t.role === 'tool' ? userBlocks(t) : t.content });
  }
  return {
    headers: { 'anthropic-version': ANTHROPIC_VERSION },
    body: JSON.stringify({
      ...(model ? { model } : {}), max_tokens: MAX_TOKENS, messages, tools: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })), stream,
    }),
  };
}

async function readAnthropicAgentAnswer(answer: TargetAnswer): Promise<AgentAnswer> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as { content?: Array<{ type?: string; text?: unknown; id?: unknown; name?: unknown; input?: unknown }> };
    if (!Array.isArray(json?.content)) throw new UnrecognisedAnswer('the answer has no content blocks: is this an Anthropic Messages endpoint?', json);
    const text = json.content.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
    const calls = json.content.flatMap((b, i) => (b?.type === 'tool_use' && typeof b.name === 'string' ? [{ id: typeof b.id === 'string' ? b.id : `toolu_${i}`, name: b.name, arguments: parsedArguments(b.input) }] : []));
    return { text, calls };
  }
  // the text is read by the plain reader's rules; the tool_use blocks are gathered beside it
  let text = '';
  const blocks = new Map<number, { id: string; name: string; json: string }>();
  reading: for await (const events of readServerSentEventsPerChunk(answer.chunks)) for (const { event, data } of events) {
    const payload = streamedJson(data);
    const type = payload?.type ?? event;
    if (type === 'content_block_start' && payload.content_block?.type === 'tool_use') {
      blocks.set(Number(payload.index ?? blocks.size), { id: String(payload.content_block.id ?? ''), name: String(payload.content_block.name ?? ''), json: '' });
    } else if (type === 'content_block_delta' && payload.delta?.type === 'input_json_delta') {
      const block = blocks.get(Number(payload.index));
      if (block) block.json += String(payload.delta.partial_json ?? '');
    } else if (type === 'content_block_delta' && payload.delta?.type === 'text_delta') text += String(payload.delta.text ?? '');
    else if (type === 'content_block_start' && payload.content_block?.type === 'text') text += String(payload.content_block.text ?? '');
    else if (type === 'message_stop') break reading;
    else if (type === 'error') throwStreamedError(payload);
  }
  const calls = [...blocks.entries()].sort(([a], [b]) => a - b).filter(([, b]) => b.name).map(([i, b]) => ({ id: b.id || `toolu_${i}`, name: b.name, arguments: parsedArguments(b.json) }));
  return { text, calls };
}

function throwStreamedError(payload: any): never {
  const message = String(payload.error?.message ?? 'unknown');
  // overloaded mid-stream is the target being down for now, not a format problem
  if (payload.error?.type === 'overloaded_error' || payload.error?.type === 'api_error') {
    throw new TargetUnavailableError(`the target streamed an error: ${message}`, undefined, { kind: 'streamed-error', detail: message });
  }
  throw new TargetProtocolError(`the target streamed an error: ${message}`, { kind: 'streamed-error', detail: message });
}

async function readAnthropicAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as { content?: Array<{ type?: string; text?: unknown }> };
    if (!Array.isArray(json?.content)) throw new UnrecognisedAnswer('the answer has no content blocks: is this an Anthropic Messages endpoint?', json);
    return json.content.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
  }
  let text = '';
  // a chunk's events taken in turn, one await per chunk
  reading: for await (const events of readServerSentEventsPerChunk(answer.chunks)) for (const { event, data } of events) {
    const payload = streamedJson(data);
    const type = payload?.type ?? event;
    if (type === 'content_block_delta' && payload.delta?.type === 'text_delta') text += String(payload.delta.text ?? '');
    else if (type === 'content_block_start' && payload.content_block?.type === 'text') text += String(payload.content_block.text ?? '');
    else if (type === 'message_stop') break reading;
    else if (type === 'error') throwStreamedError(payload);
  }
  return text;
}
