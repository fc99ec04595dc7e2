import { TargetProtocolError, TargetUnavailableError } from '../target-errors';
import { ApiFormatSpec, TargetAnswer, TypedUrl } from './api-format';
import { answerJson, isEventStream, UnrecognisedAnswer } from './answers';
import { readServerSentEvents } from './server-sent-events';

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
};

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
  candidates?: Array<{ content?: { parts?: Array<{ text?: unknown; thought?: boolean }> }; finishReason?: string }>;
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
  for await (const { data } of readServerSentEvents(answer.chunks)) {
    let chunk: GenerateContentResponse;
    try {
      chunk = JSON.parse(data) as GenerateContentResponse;
    } catch {
      throw new TargetProtocolError('a streamed event is not JSON');
    }
    text += chunkText(chunk);
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
