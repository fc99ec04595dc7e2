import { TargetProtocolError, TargetUnavailableError } from '../target-errors';
import type { ToolCall, ToolDefinition } from '../../agent/tools';
import { AgentAnswer, AgentTurn, ApiFormatSpec, parsedArguments, TargetAnswer, TypedUrl } from './api-format';
import { answerJson, isEventStream, UnrecognisedAnswer } from './answers';
import { readServerSentEventsPerChunk } from './server-sent-events';

/**
 * Google's Gemini API (`models/{model}:generateContent`): the conversation as `contents` with
 * roles user and model, the key in `x-goog-api-key` (never in the query string, where logs and
 * proxies would keep it). Streaming is the `streamGenerateContent` method with `alt=sse`; the
 * endpoint says which, and names the model (the body does not).
 */
export const gemini: ApiFormatSpec<'gemini'> = {
  name: 'gemini',
  label: 'Gemini generateContent',
  description: 'generateContent (url: .../v1beta, model required unless in the URL)',
  urlShape: 'https://generativelanguage.googleapis.com/v1beta with model set',
  key: { header: 'x-goog-api-key' },
  documentedNeeds: { description: 'gemini: model, or a URL naming it (.../models/{model}:generateContent)', anyOf: [{ required: ['model'] }, { properties: { url: { pattern: '/models/[^/:?#]+' } } }] },
  endpoint,
  endpointProblem: ({ path, model }) =>
    !model && !/\/models\/[^/:]+/.test(path)
      ? { field: 'model', message: 'api_format gemini needs model (e.g. gemini-2.0-flash) or a URL naming it (.../v1beta/models/{model}:generateContent).' }
      : null,
  recognises: (json) => Array.isArray(json.candidates) || !!json.promptFeedback,
  request: (turns) => ({
    body: JSON.stringify({ contents: turns.map((t) => ({ role: t.role === 'assistant' ? 'model' : 'user', parts: [{ text: t.content }] })) }),
  }),
  read: readGeminiAnswer,
  tools: {
    request: (turns, tools) => ({ body: JSON.stringify({ contents: geminiContents(turns), tools: [{ functionDeclarations: tools.map(declaration) }] }) }),
    read: readGeminiAgentAnswer,
  },
};

/** Gemini's parameters are an OpenAPI subset of JSON Schema: what it does not take is left out */
const SCHEMA_KEYS = new Set(['type', 'format', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'minItems', 'maxItems', 'minimum', 'maximum', 'title']);
function geminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (!SCHEMA_KEYS.has(k)) continue;
    if (k === 'properties' && v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, geminiSchema(sub)]));
    else if (k === 'type' && Array.isArray(v)) out[k] = v.find((x) => x !== 'null') ?? 'string';
    else out[k] = k === 'items' ? geminiSchema(v) : v;
  }
  return out;
}

const declaration = (t: ToolDefinition) => ({ name: t.name, description: t.description, parameters: geminiSchema(t.parameters) });

/** calls as the model's functionCall parts, results as functionResponse parts of the user turn after it */
function geminiContents(turns: readonly AgentTurn[]) {
  const contents: Array<{ role: 'user' | 'model'; parts: unknown[] }> = [];
  for (const t of turns) {
    if (t.role === 'assistant') {
      const parts = t.tool_calls?.length
        ? [...(t.content ? [{ text: t.content }] : []), ...t.tool_calls.map((c) => ({ functionCall: { name: c.name, args: typeof c.arguments === 'string' ? { input: c.arguments } : c.arguments } }))]
        : [{ text: t.content }];
      contents.push({ role: 'model', parts });
      continue;
    }
    const part = t.role === 'tool' ? { functionResponse: { name: t.name, response: { content: t.content } } } : { text: t.content };
    const last = contents[contents.length - 1];
    if (last?.role === 'user') last.parts.push(part);
    else contents.push({ role: 'user', parts: [part] });
  }
  return contents;
}

async function readGeminiAgentAnswer(answer: TargetAnswer): Promise<AgentAnswer> {
  const chunks: GenerateContentResponse[] = [];
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as GenerateContentResponse | GenerateContentResponse[];
    chunks.push(...(Array.isArray(json) ? json : [json]));
    if (!chunks.every((c) => c && (Array.isArray(c.candidates) || c.promptFeedback || c.error))) {
      throw new UnrecognisedAnswer('the answer has no candidates: is this a Gemini generateContent endpoint?', json);
    }
  } else {
    for await (const events of readServerSentEventsPerChunk(answer.chunks)) {
      for (const { data } of events) {
        try {
          chunks.push(JSON.parse(data) as GenerateContentResponse);
        } catch {
          throw new TargetProtocolError('a streamed event is not JSON');
        }
      }
    }
  }
  const text = chunks.map(chunkText).join('');
  const calls: ToolCall[] = [];
  for (const chunk of chunks) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
      const call = part.functionCall;
      if (call && typeof call.name === 'string') calls.push({ id: typeof call.id === 'string' ? call.id : `call_${calls.length}`, name: call.name, arguments: parsedArguments(call.args) });
    }
  }
  return { text, calls };
}

function endpoint({ url, path, model, stream }: TypedUrl): string {
  const method = stream ? 'streamGenerateContent' : 'generateContent';
  const named = path.match(/^(.*\/models\/[^/:]+)(:[A-Za-z]+)?$/);
  if (named) url.pathname = `${named[1]}:${method}`;
  else {
    // a bare host gets the version the API documents its REST examples with
    const base = path === '' ? '/v1beta' : path;
    const name = (model ?? '').replace(/^models\//, '');
    url.pathname = `${base}/models/${encodeURIComponent(name)}:${method}`;
  }
  // a streamed generateContent answers one JSON array unless asked for server-sent events
  if (stream && !url.searchParams.has('alt')) url.searchParams.set('alt', 'sse');
  return url.toString();
}

type GenerateContentResponse = {
  candidates?: Array<{ content?: { parts?: Array<{ text?: unknown; thought?: boolean; functionCall?: { id?: unknown; name?: unknown; args?: unknown } }> }; finishReason?: string }>;
  promptFeedback?: { blockReason?: string };
  error?: { code?: number; message?: string; status?: string };
};

async function readGeminiAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as GenerateContentResponse | GenerateContentResponse[];
    // streamGenerateContent without alt=sse answers one JSON array of the chunks
    const chunks = Array.isArray(json) ? json : [json];
    if (!chunks.every((c) => c && (Array.isArray(c.candidates) || c.promptFeedback || c.error))) {
      throw new UnrecognisedAnswer('the answer has no candidates: is this a Gemini generateContent endpoint?', json);
    }
    return chunks.map(chunkText).join('');
  }
  let text = '';
  for await (const events of readServerSentEventsPerChunk(answer.chunks)) {
    for (const { data } of events) {
      let chunk: GenerateContentResponse;
      try {
        chunk = JSON.parse(data) as GenerateContentResponse;
      } catch {
        throw new TargetProtocolError('a streamed event is not JSON');
      }
      text += chunkText(chunk);
    }
  }
  return text;
}

function chunkText(chunk: GenerateContentResponse): string {
  if (chunk.error) {
    const detail = `${chunk.error.status ?? chunk.error.code ?? 'error'}: ${chunk.error.message ?? ''}`.trim();
    // overloaded or out of quota mid-answer: down for now, not misconfigured
    if (chunk.error.code === 429 || chunk.error.code === 503 || chunk.error.status === 'UNAVAILABLE') {
      throw new TargetUnavailableError(`the target streamed an error: ${detail}`, undefined, { kind: 'streamed-error', detail });
    }
    throw new TargetProtocolError(`the target streamed an error: ${detail}`, { kind: 'streamed-error', detail });
  }
  // a prompt the API's own filter blocked gets no candidate: that is the target refusing
  if (!chunk.candidates?.length && chunk.promptFeedback?.blockReason) return `[blocked by the API's safety filter: ${chunk.promptFeedback.blockReason}]`;
  const parts = chunk.candidates?.[0]?.content?.parts ?? [];
  // "thought" parts are the model's reasoning, not its answer
  return parts.map((p) => (typeof p.text === 'string' && !p.thought ? p.text : '')).join('');
}
