import { TargetProtocolError, TargetUnavailableError } from '../target-errors';
import type { ToolCall } from '../../agent/tools';
import { AgentAnswer, AgentTurn, ApiFormatSpec, wireArguments, completePath, parsedArguments, TargetAnswer } from './api-format';
import { answerJson, isEventStream, UnrecognisedAnswer } from './answers';
import { readServerSentEventsPerChunk } from './server-sent-events';

/**
 * OpenAI's Responses API. The history goes as `input` messages and nothing is stored on the
 * server (`store: false`): each conversation stays ours, as with chat completions.
 */
export const openaiResponses: ApiFormatSpec<'openai-responses'> = {
  name: 'openai-responses',
  label: 'OpenAI Responses',
  description: 'the Responses API (.../v1 or .../v1/responses)',
  urlShape: 'https://host/v1 or the full endpoint .../v1/responses',
  key: { header: 'authorization', scheme: 'Bearer' },
  endpoint: (typed) => completePath(typed, '/responses', '/v1/responses'),
  alternativeTail: /\/responses$/,
  recognises: (json) => json.object === 'response' || Array.isArray(json.output),
  request: (turns, { model, stream }) => ({ body: JSON.stringify({ ...(model ? { model } : {}), input: turns, stream, store: false }) }),
  read: readResponsesAnswer,
  tools: {
    request: (turns, tools, { model, stream }) => ({
      body: JSON.stringify({
        ...(model ? { model } : {}),
        input: turns.flatMap(inputItems),
        tools: tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters })),
        stream,
        store: false,
      }),
    }),
    read: readResponsesAgentAnswer,
  },
};

/** the agent's calls are `function_call` items, our results `function_call_output` items */
function inputItems(t: AgentTurn): unknown[] {
  if (t.role === 'tool') return [{ type: 'function_call_output', call_id: t.tool_call_id, output: t.content }];
  if (t.role === 'assistant' && t.tool_calls?.length) {
    return [...(t.content ? [{ role: 'assistant', content: t.content }] : []), ...t.tool_calls.map((c) => ({ type: 'function_call', call_id: c.id, name: c.name, arguments: wireArguments(c.arguments) }))];
  }
  return [{ role: t.role, content: t.content }];
}

type CallItem = { type?: string; call_id?: unknown; id?: unknown; name?: unknown; arguments?: unknown };
const callsIn = (output: readonly CallItem[]): ToolCall[] =>
  output.filter((i) => i?.type === 'function_call' && typeof i.name === 'string').map((i, n) => ({ id: typeof i.call_id === 'string' ? i.call_id : typeof i.id === 'string' ? i.id : `call_${n}`, name: i.name as string, arguments: parsedArguments(i.arguments) }));

async function readResponsesAgentAnswer(answer: TargetAnswer): Promise<AgentAnswer> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as { output?: OutputItem[]; error?: { message?: string } | null };
    if (json?.error) throw new TargetProtocolError(`the target answered an error: ${String(json.error.message ?? 'unknown')}`, { kind: 'streamed-error', detail: String(json.error.message) });
    if (!Array.isArray(json?.output)) throw new UnrecognisedAnswer('the answer has no output items: is this an OpenAI Responses endpoint?', json);
    return { text: outputText(json.output), calls: callsIn(json.output as CallItem[]) };
  }
  let text = '';
  const items: CallItem[] = [];
  reading: for await (const events of readServerSentEventsPerChunk(answer.chunks)) for (const { event, data } of events) {
    let payload: any;
    try {
      payload = JSON.parse(data);
    } catch {
      throw new TargetProtocolError('a streamed event is not JSON');
    }
    const type = payload?.type ?? event;
    if (type === 'response.output_text.delta' || type === 'response.refusal.delta') text += String(payload.delta ?? '');
    // a finished item carries the whole call: its arguments need no piecing together
    else if (type === 'response.output_item.done' && payload.item?.type === 'function_call') items.push(payload.item);
    else if (type === 'response.completed') {
      if (!items.length && Array.isArray(payload.response?.output)) items.push(...payload.response.output);
      break reading;
    } else if (type === 'error' || type === 'response.failed') streamedFailure(payload);
  }
  return { text, calls: callsIn(items) };
}

function streamedFailure(payload: any): never {
  const message = String(payload.message ?? payload.response?.error?.message ?? 'unknown');
  if (payload.code === 'server_error' || payload.response?.error?.code === 'server_error') {
    throw new TargetUnavailableError(`the target streamed an error: ${message}`, undefined, { kind: 'streamed-error', detail: message });
  }
  throw new TargetProtocolError(`the target streamed an error: ${message}`, { kind: 'streamed-error', detail: message });
}

type OutputItem = { type?: string; content?: Array<{ type?: string; text?: unknown; refusal?: unknown }> };

/** without tools the answer reads the same way, its calls (none were offered) left aside */
async function readResponsesAnswer(answer: TargetAnswer): Promise<string> {
  return (await readResponsesAgentAnswer(answer)).text;
}

function outputText(output: OutputItem[]): string {
  return output
    .filter((item) => item?.type === 'message')
    .flatMap((item) => item.content ?? [])
    .map((part) => (part?.type === 'output_text' && typeof part.text === 'string' ? part.text : part?.type === 'refusal' && typeof part.refusal === 'string' ? part.refusal : ''))
    .join('');
}
