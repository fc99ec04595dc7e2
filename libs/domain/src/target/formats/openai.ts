import { TargetProtocolError } from '../target-errors';
import type { ToolCall, ToolDefinition } from '../../agent/tools';
import { AgentAnswer, AgentTurn, ApiFormatSpec, wireArguments, completePath, FormatSettings, parsedArguments, TargetAnswer, ToolCalling } from './api-format';
import { answerJson, isEventStream, streamedJson, UnrecognisedAnswer } from './answers';
import { ChatTurn } from './json-template';
import { readServerSentEventsPerChunk } from './server-sent-events';

/** Any OpenAI-compatible chat completions endpoint (OpenAI, vLLM, Ollama, LiteLLM, the lab). */
export const openai: ApiFormatSpec<'openai'> = {
  name: 'openai',
  label: 'OpenAI chat completions',
  description: 'chat completions (url: base URL such as https://host/v1, or the full endpoint)',
  urlShape: 'the base URL the OpenAI SDKs take (https://host/v1) or the full endpoint (.../v1/chat/completions)',
  key: { header: 'authorization', scheme: 'Bearer' },
  endpoint: (typed) => completePath(typed, '/chat/completions', '/v1/chat/completions'),
  alternativeTail: /\/chat\/completions$/,
  recognises: (json) => Array.isArray(json.choices),
  request: chatCompletionsRequest,
  read: readOpenAiAnswer,
  tools: {
    request: chatCompletionsToolsRequest,
    read: readOpenAiAgentAnswer,
  } satisfies ToolCalling,
};

/** the tools in the chat completions function form */
export const functionTools = (tools: readonly ToolDefinition[]) =>
  tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));

/** a turn as chat completions carries it: calls on the assistant message, results as `tool` messages */
function chatMessage(t: AgentTurn): Record<string, unknown> {
  if (t.role === 'tool') return { role: 'tool', tool_call_id: t.tool_call_id, content: t.content };
  if (t.role === 'assistant' && t.tool_calls?.length) {
    return {
      role: 'assistant',
      content: t.content || null,
      tool_calls: t.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: wireArguments(c.arguments) } })),
    };
  }
  return { role: t.role, content: t.content };
}

/** {model, messages, tools, stream}: as without tools, the history in the API's own shape */
export function chatCompletionsToolsRequest(turns: readonly AgentTurn[], tools: readonly ToolDefinition[], { model, stream }: FormatSettings) {
  return { body: JSON.stringify({ ...(model ? { model } : {}), messages: turns.map(chatMessage), tools: functionTools(tools), stream }) };
}

type WireCall = { id?: unknown; function?: { name?: unknown; arguments?: unknown } };

export async function readOpenAiAgentAnswer(answer: TargetAnswer): Promise<AgentAnswer> {
  if (!isEventStream(answer)) {
    const json = await answerJson(answer);
    const text = messageText(json);
    const calls = ((json as any).choices[0].message.tool_calls ?? []) as WireCall[];
    return { text, calls: Array.isArray(calls) ? calls.map((c, i) => toolCall(c.id, c.function?.name, c.function?.arguments, i)).filter(isCall) : [] };
  }
  let text = '';
  // streamed calls come in pieces, keyed by their index
  const parts = new Map<number, { id: string; name: string; args: string }>();
  for await (const events of readServerSentEventsPerChunk(answer.chunks)) {
    for (const { data } of events) {
      if (data.trim() === '[DONE]') return { text, calls: calledTools(parts) };
      const delta = streamedDelta(data);
      if (typeof delta?.content === 'string') text += delta.content;
      else if (typeof delta?.refusal === 'string') text += delta.refusal;
      for (const piece of delta?.tool_calls ?? []) {
        const index = typeof piece.index === 'number' ? piece.index : parts.size;
        const part = parts.get(index) ?? { id: '', name: '', args: '' };
        if (typeof piece.id === 'string') part.id = piece.id;
        if (typeof piece.function?.name === 'string') part.name += piece.function.name;
        if (typeof piece.function?.arguments === 'string') part.args += piece.function.arguments;
        parts.set(index, part);
      }
    }
  }
  return { text, calls: calledTools(parts) };
}

/** the calls streamed in pieces, in the order of their indexes */
function calledTools(parts: Map<number, { id: string; name: string; args: string }>): ToolCall[] {
  return [...parts.entries()].sort(([a], [b]) => a - b).map(([i, p]) => toolCall(p.id, p.name, p.args, i)).filter(isCall);
}

/** a call as read, or null when it names no tool; a missing id gets one from its place */
export function toolCall(id: unknown, name: unknown, args: unknown, index: number): ToolCall | null {
  if (typeof name !== 'string' || !name) return null;
  return { id: typeof id === 'string' && id ? id : `call_${index}`, name, arguments: parsedArguments(args) };
}

export const isCall = (c: ToolCall | null): c is ToolCall => c !== null;

/** {model, messages, stream}: the model only when one is set (a gateway may pick its own) */
export function chatCompletionsRequest(turns: ChatTurn[], { model, stream }: FormatSettings) {
  return { body: JSON.stringify({ ...(model ? { model } : {}), messages: turns, stream }) };
}

/**
 * A streamed answer is read a chunk of events at a time (one await per chunk, not per event): a
 * target streaming a few characters an event pays for its characters, not for the turns of the
 * event loop between them.
 */
export async function readOpenAiAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) return messageText(await answerJson(answer));
  // each chunk's deltas joined in one string: a few strings live to the end, not one per event
  const read: string[] = [];
  for await (const events of readServerSentEventsPerChunk(answer.chunks)) {
    const deltas: string[] = [];
    for (const { data } of events) {
      if (data.trim() === '[DONE]') return read.join('') + deltas.join('');
      const delta = streamedDelta(data);
      if (typeof delta?.content === 'string') deltas.push(delta.content);
      else if (typeof delta?.refusal === 'string') deltas.push(delta.refusal);
    }
    read.push(deltas.join(''));
  }
  return read.join('');
}

type StreamedDelta = { content?: unknown; refusal?: unknown; tool_calls?: Array<WireCall & { index?: number }> };

/** a streamed chunk's delta, if it has one; a TargetProtocolError when the event is not JSON or streams an error */
function streamedDelta(data: string): StreamedDelta | undefined {
  const chunk = streamedJson(data, 'a streamed chunk') as { choices?: Array<{ delta?: StreamedDelta }>; error?: { message?: string } };
  if (chunk.error) throw new TargetProtocolError(`the target streamed an error: ${String(chunk.error.message ?? 'unknown')}`);
  return chunk.choices?.[0]?.delta;
}

function messageText(json: unknown): string {
  const message = (json as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }> })?.choices?.[0]?.message;
  if (!message) throw new UnrecognisedAnswer('the answer has no choices[0].message: is this an OpenAI chat completions endpoint?', json);
  const { content, refusal } = message;
  if (typeof content === 'string') return content;
  // content parts: [{type: 'text', text}]
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  if (typeof refusal === 'string') return refusal;
  if (content === null) return '';
  throw new TargetProtocolError('choices[0].message.content is neither text nor content parts');
}
