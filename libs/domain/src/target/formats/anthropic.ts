import { TargetProtocolError, TargetUnavailableError } from '../target-errors';
import { ApiFormatSpec, completePath, TargetAnswer } from './api-format';
import { answerJson, isEventStream, streamedJson, UnrecognisedAnswer } from './answers';
import { readServerSentEvents } from './server-sent-events';

export const ANTHROPIC_VERSION = '2023-06-01';
/** required by the Messages API */
const MAX_TOKENS = 1024;

/** Anthropic's Messages API (and compatible gateways). */
export const anthropic: ApiFormatSpec<'anthropic'> = {
  name: 'anthropic',
  label: 'Anthropic Messages',
  description: 'Messages API (.../v1 or .../v1/messages)',
  urlShape: 'https://host/v1 or the full endpoint .../v1/messages',
  key: { header: 'x-api-key' },
  endpoint: (typed) => completePath(typed, '/messages', '/v1/messages'),
  alternativeTail: /\/messages$/,
  recognises: (json) => json.type === 'message' && Array.isArray(json.content),
  request: (turns, { model, stream }) => ({
    headers: { 'anthropic-version': ANTHROPIC_VERSION },
    body: JSON.stringify({ ...(model ? { model } : {}), max_tokens: MAX_TOKENS, messages: turns, stream }),
  }),
  read: readAnthropicAnswer,
};

async function readAnthropicAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as { content?: Array<{ type?: string; text?: unknown }> };
    if (!Array.isArray(json?.content)) throw new UnrecognisedAnswer('the answer has no content blocks: is this an Anthropic Messages endpoint?', json);
    return json.content.map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('');
  }
  let text = '';
  for await (const { event, data } of readServerSentEvents(answer.chunks)) {
    const payload = streamedJson(data);
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
