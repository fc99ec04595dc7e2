import { TargetProtocolError } from '../../chat-driver';
import { ApiChatDriver } from './api-conversation';
import { answerJson, ApiDriverOptions, isEventStream, TargetAnswer, unreadable } from './api-transport';
import { ChatTurn } from './json-template';
import { readServerSentEvents } from './server-sent-events';

export interface OpenAiChatTarget {
  /** the full endpoint, e.g. https://api.openai.com/v1/chat/completions (not the base URL) */
  url: string;
  api_key?: string | null;
  model?: string | null;
  /** ask for a streamed answer; both kinds are read whatever is asked */
  stream?: boolean;
}

/** Any OpenAI-compatible chat completions endpoint (OpenAI, vLLM, Ollama, LiteLLM, the lab). */
export class OpenAiChatDriver extends ApiChatDriver {
  constructor(private readonly target: OpenAiChatTarget, options: ApiDriverOptions) {
    super(options);
  }

  protected complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string> {
    const { url, api_key, model, stream = false } = this.target;
    const body = JSON.stringify({ ...(model ? { model } : {}), messages: turns, stream });
    return this.transport.post({ url, headers: this.credentials(api_key), body, secrets: [api_key] }, readOpenAiAnswer, signal);
  }

  protected credentials(key: string | null | undefined): Record<string, string> {
    return key ? { authorization: `Bearer ${key}` } : {};
  }
}

/**
 * Azure OpenAI: OpenAI's chat completions on a deployment URL (with its api-version), the key
 * in an `api-key` header. The deployment decides the model; one given is sent all the same.
 */
export class AzureOpenAiChatDriver extends OpenAiChatDriver {
  protected credentials(key: string | null | undefined): Record<string, string> {
    return key ? { 'api-key': key } : {};
  }
}

export async function readOpenAiAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) return messageText(answer, await answerJson(answer));
  let text = '';
  for await (const { data } of readServerSentEvents(answer.chunks)) {
    if (data.trim() === '[DONE]') break;
    const chunk = parse(data) as { choices?: Array<{ delta?: { content?: unknown; refusal?: unknown } }>; error?: { message?: string } };
    if (chunk.error) throw new TargetProtocolError(`the target streamed an error: ${String(chunk.error.message ?? 'unknown')}`);
    const delta = chunk.choices?.[0]?.delta;
    if (typeof delta?.content === 'string') text += delta.content;
    else if (typeof delta?.refusal === 'string') text += delta.refusal;
  }
  return text;
}

function messageText(answer: TargetAnswer, json: unknown): string {
  const message = (json as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }> })?.choices?.[0]?.message;
  if (!message) throw unreadable('the answer has no choices[0].message: is this an OpenAI chat completions endpoint?', answer, json);
  const { content, refusal } = message;
  if (typeof content === 'string') return content;
  // content parts: [{type: 'text', text}]
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  if (typeof refusal === 'string') return refusal;
  if (content === null) return '';
  throw new TargetProtocolError('choices[0].message.content is neither text nor content parts');
}

function parse(data: string): any {
  try {
    return JSON.parse(data);
  } catch {
    throw new TargetProtocolError('a streamed chunk is not JSON');
  }
}
