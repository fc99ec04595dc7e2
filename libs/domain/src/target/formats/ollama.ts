import { TargetProtocolError } from '../target-errors';
import { ApiFormatSpec, TargetAnswer, withPath } from './api-format';
import { answerJson, UnrecognisedAnswer } from './answers';
import { readJsonLines } from './json-lines';

/**
 * Ollama's native API (`POST /api/chat`). It streams by default, as JSON lines rather than
 * server-sent events, so `stream` is always said out loud. A key, for an Ollama behind a
 * proxy that wants one, goes as a bearer token.
 */
export const ollama: ApiFormatSpec<'ollama'> = {
  name: 'ollama',
  label: 'Ollama',
  description: 'native /api/chat (url: the server, model required)',
  urlShape: 'the server address, e.g. http://host:11434 (the model must be pulled: `ollama pull <model>`)',
  key: { header: 'authorization', scheme: 'Bearer' },
  documentedNeeds: { description: 'ollama: model is required', required: ['model'] },
  endpoint: (typed) => {
    const { path } = typed;
    if (path.endsWith('/api/chat')) return withPath(typed, path);
    return withPath(typed, path.endsWith('/api') ? `${path}/chat` : `${path}/api/chat`);
  },
  endpointProblem: ({ model }) => (model ? null : { field: 'model', message: 'api_format ollama needs model (the name `ollama list` shows, e.g. llama3.2).' }),
  alternativeTail: /\/api(\/chat)?$/,
  recognises: (json) => !!json.message && typeof json.message === 'object' && 'content' in json.message && 'done' in json,
  settingsProblem: ({ model }) => (model ? null : 'api_format ollama needs model'),
  request: (turns, { model, stream }) => ({ body: JSON.stringify({ model, messages: turns, stream }) }),
  read: readOllamaAnswer,
  hints: { notFound: 'Ollama answers 404 for a model it does not have: pull it (`ollama pull <model>`) or check model; url is the server address.' },
};

type OllamaChunk = { message?: { content?: unknown }; done?: boolean; error?: unknown };

async function readOllamaAnswer(answer: TargetAnswer): Promise<string> {
  if (!answer.contentType.includes('ndjson')) {
    const json = (await answerJson(answer)) as OllamaChunk;
    if (json?.error) throw new TargetProtocolError(`the target answered an error: ${String(json.error)}`, { kind: 'streamed-error', detail: String(json.error) });
    if (typeof json?.message?.content !== 'string') throw new UnrecognisedAnswer('the answer has no message.content: is this Ollama\'s /api/chat?', json);
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
