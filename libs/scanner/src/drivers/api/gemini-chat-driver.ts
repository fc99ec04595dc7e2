import { TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { ApiChatDriver } from './api-conversation';
import { answerJson, ApiDriverOptions, isEventStream, TargetAnswer, unreadable } from './api-transport';
import { ChatTurn } from './json-template';
import { readServerSentEvents } from './server-sent-events';

export interface GeminiChatTarget {
  /** the model's method, e.g. .../v1beta/models/gemini-2.0-flash:generateContent (or :streamGenerateContent?alt=sse) */
  url: string;
  api_key?: string | null;
}

/**
 * Google's Gemini API (`models/{model}:generateContent`): the conversation as `contents` with
 * roles user and model, the key in `x-goog-api-key` (never in the query string, where logs and
 * proxies would keep it). Streaming is the `streamGenerateContent` method with `alt=sse`; the
 * endpoint says which (endpoint.ts).
 */
export class GeminiChatDriver extends ApiChatDriver {
  constructor(private readonly target: GeminiChatTarget, options: ApiDriverOptions) {
    super(options);
  }

  protected complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string> {
    const { url, api_key } = this.target;
    const contents = turns.map((t) => ({ role: t.role === 'assistant' ? 'model' : 'user', parts: [{ text: t.content }] }));
    const headers: Record<string, string> = api_key ? { 'x-goog-api-key': api_key } : {};
    return this.transport.post({ url, headers, body: JSON.stringify({ contents }), secrets: [api_key] }, readGeminiAnswer, signal);
  }
}

type GenerateContentResponse = {
  candidates?: Array<{ content?: { parts?: Array<{ text?: unknown; thought?: boolean }> }; finishReason?: string }>;
  promptFeedback?: { blockReason?: string };
  error?: { code?: number; message?: string; status?: string };
};

export async function readGeminiAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as GenerateContentResponse | GenerateContentResponse[];
    // streamGenerateContent without alt=sse answers one JSON array of the chunks
    const chunks = Array.isArray(json) ? json : [json];
    if (!chunks.every((c) => c && (Array.isArray(c.candidates) || c.promptFeedback || c.error))) {
      throw unreadable('the answer has no candidates: is this a Gemini generateContent endpoint?', answer, json);
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
