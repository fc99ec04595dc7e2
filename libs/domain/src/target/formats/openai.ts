import { TargetProtocolError } from '../target-errors';
import { ApiFormatSpec, completePath, FormatSettings, TargetAnswer } from './api-format';
import { answerJson, isEventStream, streamedJson, UnrecognisedAnswer } from './answers';
import { ChatTurn } from './json-template';
import { readServerSentEvents } from './server-sent-events';

/** Any OpenAI-compatible chat completions endpoint (OpenAI, vLLM, Ollama, LiteLLM, the lab). */
export const openai: ApiFormatSpec<'openai'> = {
  name: 'openai',
  label: 'OpenAI chat completions',
  description: 'chat completions (url: base URL such as https://host/v1, or the full endpoint)',
  urlShape: 'the base URL the OpenAI SDKs take (https://host/v1) or the full endpoint (.../v1/chat/completions)',
  key: { header: 'authorization', scheme: 'Bearer' },
  endpoint: (typed) => completePath(typed, '/chat/completions', '/v1/chat/completions'),
  alternativeTail: /\/chat\/completions$/,
  recognises: (json) => Array.isArray(json.choices),
  request: chatCompletionsRequest,
  read: readOpenAiAnswer,
};

/** {model, messages, stream}: the model only when one is set (a gateway may pick its own) */
export function chatCompletionsRequest(turns: ChatTurn[], { model, stream }: FormatSettings) {
  return { body: JSON.stringify({ ...(model ? { model } : {}), messages: turns, stream }) };
}

export async function readOpenAiAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) return messageText(await answerJson(answer));
  let text = '';
  for await (const { data } of readServerSentEvents(answer.chunks)) {
    if (data.trim() === '[DONE]') break;
    const chunk = streamedJson(data, 'a streamed chunk') as { choices?: Array<{ delta?: { content?: unknown; refusal?: unknown } }>; error?: { message?: string } };
    if (chunk.error) throw new TargetProtocolError(`the target streamed an error: ${String(chunk.error.message ?? 'unknown')}`);
    const delta = chunk.choices?.[0]?.delta;
    if (typeof delta?.content === 'string') text += delta.content;
    else if (typeof delta?.refusal === 'string') text += delta.refusal;
  }
  return text;
}

function messageText(json: unknown): string {
  const message = (json as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }> })?.choices?.[0]?.message;
  if (!message) throw new UnrecognisedAnswer('the answer has no choices[0].message: is this an OpenAI chat completions endpoint?', json);
  const { content, refusal } = message;
  if (typeof content === 'string') return content;
  // content parts: [{type: 'text', text}]
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  if (typeof refusal === 'string') return refusal;
  if (content === null) return '';
  throw new TargetProtocolError('choices[0].message.content is neither text nor content parts');
}
