import { TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { ApiChatDriver } from './api-conversation';
import { answerJson, ApiDriverOptions, isEventStream, TargetAnswer, unreadable } from './api-transport';
import { ChatTurn } from './json-template';
import { readServerSentEvents } from './server-sent-events';

export interface AnthropicChatTarget {
  /** the full endpoint, e.g. https://api.anthropic.com/v1/messages */
  url: string;
  api_key?: string | null;
  model?: string | null;
  stream?: boolean;
  /** required by the Messages API */
  maxTokens?: number;
}

export const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic's Messages API (and compatible gateways). */
export class AnthropicChatDriver extends ApiChatDriver {
  constructor(private readonly target: AnthropicChatTarget, options: ApiDriverOptions) {
    super(options);
  }

  protected complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string> {
    const { url, api_key, model, stream = false, maxTokens = 1024 } = this.target;
    const body = JSON.stringify({ ...(model ? { model } : {}), max_tokens: maxTokens, messages: turns, stream });
    const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION, ...(api_key ? { 'x-api-key': api_key } : {}) };
    return this.transport.post({ url, headers, body, secrets: [api_key] }, readAnthropicAnswer, signal);
  }
}

export async function readAnthropicAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as { content?: Array<{ type?: string; text?: unknown }> };
    if (!Array.isArray(json?.content)) throw unreadable('the answer has no content blocks: is this an Anthropic Messages endpoint?', answer, json);
    return json.content.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
  }
  let text = '';
  for await (const { event, data } of readServerSentEvents(answer.chunks)) {
    const payload = parse(data);
    const type = payload?.type ?? event;
    if (type === 'content_block_delta' && payload.delta?.type === 'text_delta') text += String(payload.delta.text ?? '');
    else if (type === 'content_block_start' && payload.content_block?.type === 'text') text += String(payload.content_block.text ?? '');
    else if (type === 'message_stop') break;
    else if (type === 'error') {
      const message = String(payload.error?.message ?? 'unknown');
      // overloaded mid-stream is the target being down for now, not a format problem
      if (payload.error?.type === 'overloaded_error' || payload.error?.type === 'api_error') {
        throw new TargetUnavailableError(`the target streamed an error: ${message}`, undefined, { kind: 'streamed-error', detail: message });
      }
      throw new TargetProtocolError(`the target streamed an error: ${message}`, { kind: 'streamed-error', detail: message });
    }
  }
  return text;
}

function parse(data: string): any {
  try {
    return JSON.parse(data);
  } catch {
    throw new TargetProtocolError('a streamed event is not JSON');
  }
}
