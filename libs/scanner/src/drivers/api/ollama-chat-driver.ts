import { TargetProtocolError } from '../../chat-driver';
import { ApiChatDriver } from './api-conversation';
import { answerJson, ApiDriverOptions, TargetAnswer, unreadable } from './api-transport';
import { ChatTurn } from './json-template';
import { readJsonLines } from './json-lines';

export interface OllamaChatTarget {
  /** the native chat endpoint, e.g. http://localhost:11434/api/chat */
  url: string;
  api_key?: string | null;
  model: string;
  stream?: boolean;
}

/**
 * Ollama's native API (`POST /api/chat`). It streams by default, as JSON lines rather than
 * server-sent events, so `stream` is always said out loud. A key, for an Ollama behind a
 * proxy that wants one, goes as a bearer token.
 */
export class OllamaChatDriver extends ApiChatDriver {
  constructor(private readonly target: OllamaChatTarget, options: ApiDriverOptions) {
    super(options);
  }

  protected complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string> {
    const { url, api_key, model, stream = false } = this.target;
    const body = JSON.stringify({ model, messages: turns, stream });
    const headers: Record<string, string> = api_key ? { authorization: `Bearer ${api_key}` } : {};
    return this.transport.post({ url, headers, body, secrets: [api_key] }, readOllamaAnswer, signal);
  }
}

type OllamaChunk = { message?: { content?: unknown }; done?: boolean; error?: unknown };

export async function readOllamaAnswer(answer: TargetAnswer): Promise<string> {
  if (!answer.contentType.includes('ndjson')) {
    const json = (await answerJson(answer)) as OllamaChunk;
    if (json?.error) throw new TargetProtocolError(`the target answered an error: ${String(json.error)}`, { kind: 'streamed-error', detail: String(json.error) });
    if (typeof json?.message?.content !== 'string') throw unreadable('the answer has no message.content: is this Ollama\'s /api/chat?', answer, json);
    return json.message.content;
  }
  let text = '';
  const bad = (): never => {
    throw new TargetProtocolError('a streamed line is not JSON');
  };
  for await (const value of readJsonLines(answer.chunks, bad)) {
    const chunk = value as OllamaChunk;
    if (chunk?.error) throw new TargetProtocolError(`the target streamed an error: ${String(chunk.error)}`, { kind: 'streamed-error', detail: String(chunk.error) });
    if (typeof chunk?.message?.content === 'string') text += chunk.message.content;
    if (chunk?.done) break;
  }
  return text;
}
