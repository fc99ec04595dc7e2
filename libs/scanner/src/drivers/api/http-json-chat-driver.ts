import { ApiChatDriver } from './api-conversation';
import { answerJson, ApiDriverOptions, isEventStream, TargetAnswer } from './api-transport';
import { answerAtPath, ChatTurn, fillBodyTemplate, valueAtPath } from './json-template';
import { readServerSentEvents } from './server-sent-events';

export interface HttpJsonChatTarget {
  /** the full endpoint the body is POSTed to */
  url: string;
  api_key?: string | null;
  /** JSON text with "{{prompt}}" (inside a string) and/or {{messages}} (a JSON array) */
  body_template: string;
  /** dot path to the answer, e.g. `choices.0.message.content` */
  response_path: string;
}

/** Any JSON chat endpoint, described by a body template and a response path. */
export class HttpJsonChatDriver extends ApiChatDriver {
  constructor(private readonly target: HttpJsonChatTarget, options: ApiDriverOptions) {
    super(options);
  }

  protected complete(turns: ChatTurn[], signal?: AbortSignal): Promise<string> {
    const { url, api_key, body_template, response_path } = this.target;
    const body = fillBodyTemplate(body_template, turns);
    const headers: Record<string, string> = api_key ? { authorization: `Bearer ${api_key}` } : {};
    return this.transport.post({ url, headers, body, secrets: [api_key] }, (answer) => readAt(answer, response_path), signal);
  }
}

/** plain JSON: the value at the path; a stream: the text at the path in each event, joined */
async function readAt(answer: TargetAnswer, path: string): Promise<string> {
  if (!isEventStream(answer)) return answerAtPath(await answerJson(answer), path);
  let text = '';
  for await (const { data } of readServerSentEvents(answer.chunks)) {
    if (data.trim() === '[DONE]') break;
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      text += data;
      continue;
    }
    const part = valueAtPath(chunk, path);
    if (typeof part === 'string') text += part;
  }
  return text;
}
