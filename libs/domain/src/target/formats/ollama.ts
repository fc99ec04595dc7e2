import { TargetProtocolError } from '../target-errors';
import type { ToolCall } from '../../agent/tools';
import { AgentAnswer, AgentTurn, ApiFormatSpec, TargetAnswer, withPath } from './api-format';
import { functionTools, isCall, toolCall } from './openai';
import { answerJson, UnrecognisedAnswer } from './answers';
import { jsonLine, readJsonLinesPerChunk } from './json-lines';

/**
 * Ollama's native API (`POST /api/chat`). It streams by default, as JSON lines rather than
 * server-sent events, so `stream` is always said out loud. A key, for an Ollama behind a
 * proxy that wants one, goes as a bearer token.
 */
export const ollama: ApiFormatSpec<'ollama'> = {
  name: 'ollama',
  label: 'Ollama',
  description: 'native /api/chat (url: the server, model required)',
  urlShape: 'the server address, e.g. http://host:11434 (the model must be pulled: `ollama pull <model>`)',
  key: { header: 'authorization', scheme: 'Bearer' },
  documentedNeeds: { description: 'ollama: model is required', required: ['model'] },
  endpoint: (typed) => {
    const { path } = typed;
    if (path.endsWith('/api/chat')) return withPath(typed, path);
    return withPath(typed, path.endsWith('/api') ? `${path}/chat` : `${path}/api/chat`);
  },
  endpointProblem: ({ model }) => (model ? null : { field: 'model', message: 'api_format ollama needs model (the name `ollama list` shows, e.g. llama3.2).' }),
  alternativeTail: /\/api(\/chat)?$/,
  recognises: (json) => !!json.message && typeof json.message === 'object' && 'content' in json.message && 'done' in json,
  settingsProblem: ({ model }) => (model ? null : 'api_format ollama needs model'),
  request: (turns, { model, stream }) => ({ body: JSON.stringify({ model, messages: turns, stream }) }),
  read: readOllamaAnswer,
  tools: {
    // the tools in OpenAI's function form; calls carry their arguments as an object, results name their tool
    request: (turns, tools, { model, stream }) => ({ body: JSON.stringify({ model, messages: turns.map(ollamaMessage), tools: functionTools(tools), stream }) }),
    read: readOllamaAgentAnswer,
  },
  hints: { notFound: 'Ollama answers 404 for a model it does not have: pull it (`ollama pull <model>`) or check model; url is the server address.' },
};

type OllamaChunk = { message?: { content?: unknown; tool_calls?: Array<{ id?: unknown; function?: { name?: unknown; arguments?: unknown } }> }; done?: boolean; error?: unknown };

function ollamaMessage(t: AgentTurn): Record<string, unknown> {
  if (t.role === 'tool') return { role: 'tool', content: t.content, ...(t.name && { tool_name: t.name }) };
  if (t.role === 'assistant' && t.tool_calls?.length) {
    return { role: 'assistant', content: t.content, tool_calls: t.tool_calls.map((c) => ({ function: { name: c.name, arguments: typeof c.arguments === 'string' ? { input: c.arguments } : c.arguments } })) };
  }
  return { role: t.role, content: t.content };
}

const NO_CALLS: readonly ToolCall[] = [];
/** a line's calls; a line with none (most of a stream) costs no arrays */
const callsOf = (chunk: OllamaChunk, from: number): readonly ToolCall[] =>
  Array.isArray(chunk?.message?.tool_calls) ? chunk.message.tool_calls.map((c, i) => toolCall(c.id, c.function?.name, c.function?.arguments, from + i)).filter(isCall) : NO_CALLS;

async function readOllamaAgentAnswer(answer: TargetAnswer): Promise<AgentAnswer> {
  if (!answer.contentType.includes('ndjson')) {
    const json = (await answerJson(answer)) as OllamaChunk;
    const text = ollamaText(json);
    return { text, calls: [...callsOf(json, 0)] };
  }
  let text = '';
  const calls: ToolCall[] = [];
  const bad = (): never => {
    throw new TargetProtocolError('a streamed line is not JSON');
  };
  // a chunk's lines parsed in turn, one await per chunk: a line that ends the answer ends the reading
  for await (const lines of readJsonLinesPerChunk(answer.chunks)) {
    for (const line of lines) {
      const chunk = jsonLine(line, bad) as OllamaChunk;
      if (chunk?.error) throw new TargetProtocolError(`the target streamed an error: ${String(chunk.error)}`, { kind: 'streamed-error', detail: String(chunk.error) });
      if (typeof chunk?.message?.content === 'string') text += chunk.message.content;
      calls.push(...callsOf(chunk, calls.length));
      if (chunk?.done) return { text, calls };
    }
  }
  return { text, calls };
}

function ollamaText(json: OllamaChunk): string {
  if (json?.error) throw new TargetProtocolError(`the target answered an error: ${String(json.error)}`, { kind: 'streamed-error', detail: String(json.error) });
  if (typeof json?.message?.content !== 'string') throw new UnrecognisedAnswer('the answer has no message.content: is this Ollama\'s /api/chat?', json);
  return json.message.content;
}

/** without tools the answer reads the same way, its calls (none were offered) left aside */
async function readOllamaAnswer(answer: TargetAnswer): Promise<string> {
  return (await readOllamaAgentAnswer(answer)).text;
}
