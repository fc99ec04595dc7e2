import { ApiFormatSpec, TargetAnswer } from './api-format';
import { answerJson, isEventStream } from './answers';
import { answerAtPath, fillBodyTemplate, valueAtPath } from './json-template';
import { readServerSentEventsPerChunk } from './server-sent-events';

/** Any JSON chat endpoint, described by a body template and a response path (target.http). */
export const http: ApiFormatSpec<'http'> = {
  name: 'http',
  label: 'custom HTTP JSON',
  description: 'any JSON endpoint described by http {body_template, response_path}',
  urlShape: 'the full endpoint the body template is POSTed to',
  key: { header: 'authorization', scheme: 'Bearer' },
  documentedNeeds: { description: 'any HTTP API, shaped by http', required: ['http'] },
  // the user wrote the whole request, the URL included
  endpoint: ({ typed }) => typed,
  settingsProblem: (s) => (s.http ? null : 'api_format http needs http {body_template, response_path}'),
  request: (turns, s) => ({ body: fillBodyTemplate(s.http!.body_template, turns) }),
  read: (answer, s) => readAt(answer, s.http!.response_path),
  hints: {
    emptyAnswer: 'Check http.response_path: it may point at an empty field.',
    unreadable: 'Check http.response_path against what the endpoint answers.',
  },
};

/** plain JSON: the value at the path; a stream: the text at the path in each event, joined */
async function readAt(answer: TargetAnswer, path: string): Promise<string> {
  if (!isEventStream(answer)) return answerAtPath(await answerJson(answer), path);
  let text = '';
  reading: for await (const events of readServerSentEventsPerChunk(answer.chunks)) for (const { data } of events) {
    if (data.trim() === '[DONE]') break reading;
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
