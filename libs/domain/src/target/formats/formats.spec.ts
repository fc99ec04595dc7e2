import { API_FORMAT_SPECS, API_FORMATS, apiFormat, isApiFormat, keyHeaders, keyPlacementText, looksLike, readAnswer } from '.';
import { TargetProtocolError } from '../target-errors';
import { TargetAnswer } from './api-format';

const answer = (body: unknown, contentType = 'application/json'): TargetAnswer => ({
  headers: {}, contentType, chunks: (async function* () { yield Buffer.from(JSON.stringify(body)); })(),
});
const settings = { model: 'm', stream: false, http: { body_template: '{"q": "{{prompt}}"}', response_path: 'a' } };

describe('the API format registry', () => {
  it('names each format once, in the enum order, each with the words people read', () => {
    expect(API_FORMATS).toEqual(['openai', 'anthropic', 'http', 'azure-openai', 'ollama', 'gemini', 'openai-responses']);
    for (const f of API_FORMAT_SPECS) {
      expect(f.label).toMatch(/\S/);
      expect(f.description).toMatch(/\S/);
      expect(f.urlShape).toMatch(/\S/);
      expect(apiFormat(f.name)).toBe(f);
    }
    expect(isApiFormat('openai')).toBe(true);
    expect(isApiFormat('html')).toBe(false);
    expect(() => apiFormat('nope' as never)).toThrow(/not a known format/);
  });

  it('says where the key goes as the API documents it, and puts it there', () => {
    expect(API_FORMAT_SPECS.map((f) => keyPlacementText(f.key))).toEqual([
      'Authorization: Bearer', 'x-api-key', 'Authorization: Bearer', 'api-key', 'Authorization: Bearer', 'x-goog-api-key', 'Authorization: Bearer',
    ]);
    expect(keyHeaders(apiFormat('openai').key, 'k')).toEqual({ authorization: 'Bearer k' });
    expect(keyHeaders(apiFormat('anthropic').key, 'k')).toEqual({ 'x-api-key': 'k' });
    expect(keyHeaders(apiFormat('gemini').key, null)).toEqual({});
  });

  it('builds a JSON body from a conversation for every format', () => {
    const turns = [{ role: 'user' as const, content: 'hi' }];
    for (const f of API_FORMAT_SPECS) expect(() => JSON.parse(f.request(turns, settings).body)).not.toThrow();
  });

  it('recognises each API by what it answers, and nothing else', () => {
    expect(looksLike({ choices: [] })).toBe('openai');
    expect(looksLike({ type: 'message', content: [] })).toBe('anthropic');
    expect(looksLike({ candidates: [] })).toBe('gemini');
    expect(looksLike({ promptFeedback: { blockReason: 'SAFETY' } })).toBe('gemini');
    expect(looksLike({ object: 'response', output: [] })).toBe('openai-responses');
    expect(looksLike({ message: { content: 'x' }, done: true })).toBe('ollama');
    expect(looksLike({ answer: 'x' })).toBeNull();
    expect(looksLike('text')).toBeNull();
    expect(looksLike(null)).toBeNull();
  });

  it('names the format an answer its reader cannot read looks like', async () => {
    const err = await readAnswer(apiFormat('anthropic'), answer({ choices: [{ message: { content: 'x' } }] }), settings).catch((e) => e);
    expect(err).toBeInstanceOf(TargetProtocolError);
    expect(err.message).toBe('the answer has no content blocks: is this an Anthropic Messages endpoint?');
    expect(err.failure).toEqual({ kind: 'unreadable', contentType: 'application/json', looksLike: 'openai' });
    expect(await readAnswer(apiFormat('openai'), answer({ choices: [{ message: { content: 'hello' } }] }), settings)).toBe('hello');
  });
});
