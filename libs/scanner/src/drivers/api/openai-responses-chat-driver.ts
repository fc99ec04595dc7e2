import { TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { ApiChatDriver } from './api-conversation';
import { answerJson, ApiDriverOptions, isEventStream, TargetAnswer, unreadable } from './api-transport';
import { ChatTurn } from './json-template';
import { readServerSentEvents } from './server-sent-events';

export interface OpenAiResponsesTarget {
  /** e.g. https://api.openai.com/v1/responses */
  url: string;
  api_key?: string | null;
  model?: string | null;
  stream?: boolean;
}

/**
 * OpenAI's Responses API. The history goes as `input` messages and nothing is stored on the
 * server (`store: false`): each conversation stays ours, as with chat completions.
 */
export class OpenAiResponsesChatDriver extends ApiChatDriver {
  constructor(private readonly target: OpenAiResponsesTarget, options: ApiDriverOptions) {
    super(options);
  }

  protected complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string> {
    const { url, api_key, model, stream = false } = this.target;
    const body = JSON.stringify({ ...(model ? { model } : {}), input: turns, stream, store: false });
    const headers: Record<string, string> = api_key ? { authorization: `Bearer ${api_key}` } : {};
    return this.transport.post({ url, headers, body, secrets: [api_key] }, readResponsesAnswer, signal);
  }
}

type OutputItem = { type?: string; content?: Array<{ type?: string; text?: unknown; refusal?: unknown }> };

export async function readResponsesAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as { output?: OutputItem[]; error?: { message?: string } | null };
    if (json?.error) throw new TargetProtocolError(`the target answered an error: ${String(json.error.message ?? 'unknown')}`, { kind: 'streamed-error', detail: String(json.error.message) });
    if (!Array.isArray(json?.output)) throw unreadable('the answer has no output items: is this an OpenAI Responses endpoint?', answer, json);
    return outputText(json.output);
  }
  let text = '';
  for await (const { event, data } of readServerSentEvents(answer.chunks)) {
    let payload: any;
    try {
      payload = JSON.parse(data);
    } catch {
      throw new TargetProtocolError('a streamed event is not JSON');
    }
    const type = payload?.type ?? event;
    if (type === 'response.output_text.delta' || type === 'response.refusal.delta') text += String(payload.delta ?? '');
    else if (type === 'response.completed') break;
    else if (type === 'error' || type === 'response.failed') {
      const message = String(payload.message ?? payload.response?.error?.message ?? 'unknown');
      if (payload.code === 'server_error' || payload.response?.error?.code === 'server_error') {
        throw new TargetUnavailableError(`the target streamed an error: ${message}`, undefined, { kind: 'streamed-error', detail: message });
      }
      throw new TargetProtocolError(`the target streamed an error: ${message}`, { kind: 'streamed-error', detail: message });
    }
  }
  return text;
}

function outputText(output: OutputItem[]): string {
  return output
    .filter((item) => item?.type === 'message')
    .flatMap((item) => item.content ?? [])
    .map((part) => (part?.type === 'output_text' && typeof part.text === 'string' ? part.text : part?.type === 'refusal' && typeof part.refusal === 'string' ? part.refusal : ''))
    .join('');
}
