import { TargetProtocolError, TargetUnavailableError } from '../target-errors';
import { ApiFormatSpec, completePath, TargetAnswer } from './api-format';
import { answerJson, isEventStream, UnrecognisedAnswer } from './answers';
import { readServerSentEvents } from './server-sent-events';

/**
 * OpenAI's Responses API. The history goes as `input` messages and nothing is stored on the
 * server (`store: false`): each conversation stays ours, as with chat completions.
 */
export const openaiResponses: ApiFormatSpec<'openai-responses'> = {
  name: 'openai-responses',
  label: 'OpenAI Responses',
  description: 'the Responses API (.../v1 or .../v1/responses)',
  urlShape: 'https://host/v1 or the full endpoint .../v1/responses',
  key: { header: 'authorization', scheme: 'Bearer' },
  endpoint: (typed) => completePath(typed, '/responses', '/v1/responses'),
  alternativeTail: /\/responses$/,
  recognises: (json) => json.object === 'response' || Array.isArray(json.output),
  request: (turns, { model, stream }) => ({ body: JSON.stringify({ ...(model ? { model } : {}), input: turns, stream, store: false }) }),
  read: readResponsesAnswer,
};

type OutputItem = { type?: string; content?: Array<{ type?: string; text?: unknown; refusal?: unknown }> };

async function readResponsesAnswer(answer: TargetAnswer): Promise<string> {
  if (!isEventStream(answer)) {
    const json = (await answerJson(answer)) as { output?: OutputItem[]; error?: { message?: string } | null };
    if (json?.error) throw new TargetProtocolError(`the target answered an error: ${String(json.error.message ?? 'unknown')}`, { kind: 'streamed-error', detail: String(json.error.message) });
    if (!Array.isArray(json?.output)) throw new UnrecognisedAnswer('the answer has no output items: is this an OpenAI Responses endpoint?', json);
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
