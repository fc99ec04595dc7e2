import { TargetProtocolError, TargetUnavailableError } from '../target-errors';
import type { ToolCall } from '../../agent/tools';
import { AgentAnswer, parsedArguments, TargetAnswer } from './api-format';
import { apiFormat, readAgentAnswer, readAnswer } from './index';
import { streamedJson } from './answers';
import { isCall, readOpenAiAgentAnswer, readOpenAiAnswer, toolCall } from './openai';
import { answerAtPath, fillBodyTemplate } from './json-template';
import { readJsonLines } from './json-lines';
import { readServerSentEvents, readServerSentEventsPerChunk, ServerSentEvent } from './server-sent-events';

describe('readServerSentEvents', () => {
  async function events(...chunks: Array<string | Uint8Array>): Promise<ServerSentEvent[]> {
    const out: ServerSentEvent[] = [];
    for await (const e of readServerSentEvents((async function* () { yield* chunks; })())) out.push(e);
    return out;
  }
  it('reads events cut anywhere, with any line ending, comments and multi-line data', async () => {
    expect(await events(': comment\n', 'event: a\r', '\ndata: one\r\ndata:two\r\n', '\r\ndata: {"x":', '1}\n\n', 'data: last')).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: 'message', data: '{"x":1}' },
      { event: 'message', data: 'last' },
    ]);
  });
  it('reads a line of megabytes that arrives in a thousand small chunks, and a CR and LF in two chunks as one line end', async () => {
    const long = 'x'.repeat(1 << 20);
    const body = `data: ${long}\r\n\r\ndata: b\r`;
    const chunks = Array.from({ length: Math.ceil(body.length / 1024) }, (_, i) => body.slice(i * 1024, (i + 1) * 1024));
    expect(await events(...chunks, '\n\r\n')).toEqual([{ event: 'message', data: long }, { event: 'message', data: 'b' }]);
  });
  it('keeps a UTF-8 character split across chunks whole', async () => {
    const bytes = new TextEncoder().encode('data: ☃\n\n');
    expect(await events(bytes.slice(0, 8), bytes.slice(8))).toEqual([{ event: 'message', data: '☃' }]);
  });
});

/** the reader as it was before it read each chunk in one loop (a generator's turn per line), kept to compare with */
const LINE_END = /\r\n|\r|\n/g;

/**
 * Splits a text/event-stream body into events. Handles CRLF/CR/LF line ends, multi-line
 * `data:`, comments and chunks cut anywhere (even inside a UTF-8 sequence, or between the CR and
 * LF of one line end). Each chunk is read once: a line that arrives in many small chunks is kept
 * as its pieces and joined when it ends (appending to one string and searching it again from its
 * start for every chunk reads a long line once per chunk).
 */
async function* readServerSentEventsBefore(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  // the last chunk ended with a CR: an LF starting the next one is the same line end
  let afterCr = false;
  let event = '';
  let data: string[] = [];
  const lines = function* (text: string): Generator<string> {
    let start = afterCr && text.startsWith('\n') ? 1 : 0;
    afterCr = false;
    for (;;) {
      LINE_END.lastIndex = start;
      const end = LINE_END.exec(text);
      if (!end) {
        if (start < text.length) pieces.push(text.slice(start));
        return;
      }
      pieces.push(text.slice(start, end.index));
      const line = pieces.length === 1 ? pieces[0] : pieces.join('');
      pieces = [];
      start = end.index + end[0].length;
      if (end[0] === '\r' && start === text.length) afterCr = true;
      yield line;
    }
  };
  const take = function* (line: string): Generator<ServerSentEvent> {
    if (line === '') {
      if (data.length) yield { event: event || 'message', data: data.join('\n') };
      event = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
  };
  for await (const chunk of chunks) {
    for (const line of lines(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))) yield* take(line);
  }
  for (const line of lines(decoder.decode())) yield* take(line);
  if (pieces.length) {
    const last = pieces.join('');
    pieces = [];
    yield* take(last);
  }
  // a stream that ends without the final blank line still delivers its last event
  if (data.length) yield { event: event || 'message', data: data.join('\n') };
}

/** a seeded generator (mulberry32), so a failure comes back */
function rng(seed: number) {
  return (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

describe('readServerSentEvents read a chunk at a time', () => {
  const PIECES = [
    'data', 'data:', 'data: ', 'data:  ', 'event:', 'event: x', 'event', 'id: 1', 'retry: 5', ':', ': c', 'x', ' ', 'a:b', 'dat', 'datum: x', 'Data: x', ' data: x', 'eventful: y',
    '{"a":1}', '[DONE]', 'é', '☃', '😀', '\r', '\n', '\r\n', '\n\n', '\r\r', ':x\n',
  ];
  const all = async (reader: typeof readServerSentEvents, chunks: Array<string | Uint8Array>) => {
    const out: ServerSentEvent[] = [];
    for await (const e of reader((async function* () { yield* chunks; })())) out.push(e);
    return out;
  };

  it('gives the events the reader before gave, in order, however the stream is cut (bytes cut inside a character, strings, empty chunks)', async () => {
    const next = rng(37);
    for (let n = 0; n < 1000; n++) {
      const body = Array.from({ length: 1 + next(30) }, () => PIECES[next(PIECES.length)]).join('');
      const bytes = new TextEncoder().encode(body);
      const cuts = [...new Set(Array.from({ length: next(8) }, () => next(bytes.length + 1)))].sort((a, b) => a - b);
      const byteChunks = [0, ...cuts].map((at, i, all) => bytes.slice(at, all[i + 1] ?? bytes.length));
      const at = next(body.length + 1);
      const stringChunks = [body.slice(0, at), '', body.slice(at)];
      for (const chunks of [byteChunks, stringChunks]) expect(await all(readServerSentEvents, chunks)).toEqual(await all(readServerSentEventsBefore, chunks));
    }
  });

  it('gives the events the reader before gave on thousands of streams of short and long lines, cut into many chunks', async () => {
    // lines of every length about the few characters looked at before indexOf, and far past them
    const LONG = [...PIECES, '\t', '\u00a0', 'data:\tx', 'abc', 'abcd', 'abcde', 'data\r', 'event\n', 'data:\u00e9', 'x'.repeat(70), `data: ${'y'.repeat(80)}`, `:${' '.repeat(65)}`, `event: ${'e'.repeat(66)}`, `data:${'☃'.repeat(40)}`, 'data: {"choices":[{"delta":{"content":"a"}}]}', '\ndata: x\n\n', '\r\ndata:y\r\n\r\n', '\rdata: z\r\r'];
    const next = rng(3701);
    let events = 0;
    for (let n = 0; n < 3000; n++) {
      const body = Array.from({ length: 1 + next(40) }, () => LONG[next(LONG.length)]).join('');
      const bytes = new TextEncoder().encode(body);
      const cuts = [...new Set(Array.from({ length: next(24) }, () => next(bytes.length + 1)))].sort((a, b) => a - b);
      const chunks = n % 2 ? [0, ...cuts].map((at, i, all) => bytes.slice(at, all[i + 1] ?? bytes.length)) : [0, ...cuts].map((at, i, all) => body.slice(at, all[i + 1] ?? body.length));
      const before = await all(readServerSentEventsBefore, chunks);
      expect(await all(readServerSentEvents, chunks)).toEqual(before);
      events += before.length;
    }
    // most streams hold events, so the comparison is not of empty ones
    expect(events).toBeGreaterThan(4000);
  });

  it('hands on, a chunk at a time, the events the reader before gave one at a time', async () => {
    const next = rng(38);
    for (let n = 0; n < 300; n++) {
      const body = Array.from({ length: 1 + next(30) }, () => PIECES[next(PIECES.length)]).join('');
      const at = next(body.length + 1);
      const chunks = [body.slice(0, at), body.slice(at)];
      const batches: ServerSentEvent[][] = [];
      for await (const events of readServerSentEventsPerChunk((async function* () { yield* chunks; })())) batches.push(events);
      expect(batches.every((events) => events.length > 0)).toBe(true);
      expect(batches.flat()).toEqual(await all(readServerSentEventsBefore, chunks));
    }
  });

  it('reads fifty thousand events of a few characters each, in chunks cut across them', async () => {
    const body = 'data: {"a":1}\r\n\r\n'.repeat(50_000);
    const chunks = Array.from({ length: Math.ceil(body.length / 1000) }, (_, i) => body.slice(i * 1000, (i + 1) * 1000));
    expect(await all(readServerSentEvents, chunks)).toHaveLength(50_000);
  });
});

describe('the OpenAI readers of a stream, a chunk of events at a time', () => {
  type Delta = { content?: unknown; refusal?: unknown; tool_calls?: Array<{ index?: number; id?: unknown; function?: { name?: unknown; arguments?: unknown } }> };
  type Chunk = { choices?: Array<{ delta?: Delta }>; error?: { message?: string } };

  /** readOpenAiAnswer's stream as it was, an await for each event, kept to compare with */
  async function readOpenAiAnswerBefore(answer: TargetAnswer): Promise<string> {
    let text = '';
    for await (const { data } of readServerSentEventsBefore(answer.chunks)) {
      if (data.trim() === '[DONE]') break;
      const chunk = streamedJson(data, 'a streamed chunk') as Chunk;
      if (chunk.error) throw new TargetProtocolError(`the target streamed an error: ${String(chunk.error.message ?? 'unknown')}`);
      const delta = chunk.choices?.[0]?.delta;
      if (typeof delta?.content === 'string') text += delta.content;
      else if (typeof delta?.refusal === 'string') text += delta.refusal;
    }
    return text;
  }

  /** readOpenAiAgentAnswer's stream as it was */
  async function readOpenAiAgentAnswerBefore(answer: TargetAnswer): Promise<AgentAnswer> {
    let text = '';
    const parts = new Map<number, { id: string; name: string; args: string }>();
    for await (const { data } of readServerSentEventsBefore(answer.chunks)) {
      if (data.trim() === '[DONE]') break;
      const chunk = streamedJson(data, 'a streamed chunk') as Chunk;
      if (chunk.error) throw new TargetProtocolError(`the target streamed an error: ${String(chunk.error.message ?? 'unknown')}`);
      const delta = chunk.choices?.[0]?.delta;
      if (typeof delta?.content === 'string') text += delta.content;
      else if (typeof delta?.refusal === 'string') text += delta.refusal;
      for (const piece of delta?.tool_calls ?? []) {
        const index = typeof piece.index === 'number' ? piece.index : parts.size;
        const part = parts.get(index) ?? { id: '', name: '', args: '' };
        if (typeof piece.id === 'string') part.id = piece.id;
        if (typeof piece.function?.name === 'string') part.name += piece.function.name;
        if (typeof piece.function?.arguments === 'string') part.args += piece.function.arguments;
        parts.set(index, part);
      }
    }
    const calls = [...parts.entries()].sort(([a], [b]) => a - b).map(([i, p]) => toolCall(p.id, p.name, p.args, i)).filter(isCall);
    return { text, calls };
  }

  /** what targets stream, and what they should not: deltas, refusals, calls in pieces, errors, the end, and events that are not what they claim */
  const DATA = [
    '{"choices":[{"delta":{"content":"Hel"}}]}',
    '{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}',
    '{"choices":[{"delta":{"content":"lo \\n\\"wo\\u0072ld\\" é 😀"}}]}',
    '{"choices":[{"delta":{"refusal":"I will not"}}]}',
    '{"choices":[{"delta":{"content":null,"refusal":"no"}}]}',
    '{"choices":[{"delta":{"content":5}}]}',
    '{"choices":[]}', '{}', '{"choices":[{}]}', '{"choices":{"0":{"delta":{"content":"keyed"}}}}', '{"choices":[{"delta":{}}],"choices":[{"delta":{"content":"last"}}]}',
    '{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"send_","arguments":"{\\"to\\""}}]}}]}',
    '{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"email","arguments":":\\"a@b\\"}"}}]}}]}',
    '{"choices":[{"delta":{"tool_calls":[{"function":{"name":"lookup","arguments":"{}"}}]}}]}',
    '{"error":null,"choices":[{"delta":{"content":"e"}}]}', '{"error":false}',
    '{"error":{"message":"overloaded"}}', '{"error":{}}',
    '{"choices":', 'not json', '', 'null', '5', '"text"', '[]',
    '[DONE]', ' [DONE] ',
  ];
  /** how often each is picked: the well-formed ones most, so that most streams are read to their end */
  const WEIGHT = DATA.map((d) => (/error":\{|^\{"choices":$|^not|^$|^null$|DONE/.test(d) ? 1 : 6));
  const PICKS = DATA.flatMap((d, i) => Array.from({ length: WEIGHT[i] }, () => d));
  const LINE_ENDS = ['\n', '\r\n', '\r'];

  /** a stream of events as a target may write it: any line end, comments, named events, data over two lines, the last blank line missing */
  function stream(next: (n: number) => number): string {
    let out = '';
    for (let n = 1 + next(12); n > 0; n--) {
      const end = LINE_ENDS[next(3)];
      const data = PICKS[next(PICKS.length)];
      const extra = next(8);
      if (extra === 0) out += `: ping${end}`;
      if (extra === 1) out += `event: delta${end}id: ${n}${end}`;
      const cut = extra === 2 ? data.indexOf(':') : -1;
      out += cut > 0 ? `data: ${data.slice(0, cut + 1)}${end}data:${data.slice(cut + 1)}${end}` : `data: ${data}${end}`;
      if (n > 1 || next(4)) out += end;
    }
    return out;
  }

  const answerOf = (chunks: Array<string | Uint8Array>): TargetAnswer => ({ headers: {}, contentType: 'text/event-stream', chunks: (async function* () { yield* chunks; })() as AsyncIterable<Buffer> });
  /** what a reader made of a stream: its result, or the error it threw (its kind and words) */
  const outcome = <T>(read: Promise<T>): Promise<{ value: T } | { error: string }> => read.then((value) => ({ value }), (err: Error) => ({ error: `${err.constructor.name}: ${err.message}` }));

  it('reads every stream as the readers before did, to the same text and calls or the same error, however it is cut', async () => {
    const next = rng(3737);
    const seen = { text: 0, calls: 0, error: 0 };
    for (let n = 0; n < 1000; n++) {
      const body = stream(next);
      const bytes = new TextEncoder().encode(body);
      const cuts = [...new Set(Array.from({ length: next(6) }, () => next(bytes.length + 1)))].sort((a, b) => a - b);
      const chunks = n % 2 ? [0, ...cuts].map((at, i, all) => bytes.slice(at, all[i + 1] ?? bytes.length)) : [body.slice(0, cuts[0] ?? 0), body.slice(cuts[0] ?? 0)];
      const text = await outcome(readOpenAiAnswer(answerOf(chunks)));
      expect(text).toEqual(await outcome(readOpenAiAnswerBefore(answerOf(chunks))));
      const agent = await outcome(readOpenAiAgentAnswer(answerOf(chunks)));
      expect(agent).toEqual(await outcome(readOpenAiAgentAnswerBefore(answerOf(chunks))));
      if ('error' in text) seen.error++;
      else if (text.value) seen.text++;
      if ('value' in agent && agent.value.calls.length) seen.calls++;
    }
    // the streams reach each outcome often, so the comparison is not of errors alone
    expect(seen.text).toBeGreaterThan(300);
    expect(seen.calls).toBeGreaterThan(100);
    expect(seen.error).toBeGreaterThan(100);
  });
});

/** readJsonLines as it was before it read each chunk in one loop (a generator's turn per line), kept to compare with */
async function* readJsonLinesBefore(chunks: AsyncIterable<Uint8Array | string>, onBadLine: (line: string) => never): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let pieces: string[] = [];
  const parse = (line: string) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      return onBadLine(line);
    }
  };
  const lines = function* (text: string): Generator<string> {
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, end));
      const line = (pieces.length === 1 ? pieces[0] : pieces.join('')).trim();
      pieces = [];
      start = end + 1;
      if (line) yield line;
    }
    if (start < text.length) pieces.push(text.slice(start));
  };
  for await (const chunk of chunks) for (const line of lines(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))) yield parse(line);
  for (const line of lines(decoder.decode())) yield parse(line);
  const last = pieces.join('').trim();
  if (last) yield parse(last);
}

describe('readJsonLines read a chunk at a time', () => {
  /** what a line may hold: values (most often), lines that are not JSON, and white space that trim takes (and JSON.parse would not) */
  const VALUES = ['{"a":1}', '1', '{}', '[1,[2]]', '"é😀"', 'null', '{"message":{"content":"a"},"done":false}', `{"s":"${'x'.repeat(70)}"}`, `"${'☃'.repeat(30)}"`];
  const JUNK = ['{"a":', 'x', '☃', '1 2'];
  const SPACE = ['', '', '', ' ', '\t', '\r', '\u00a0', '\u2028', '\ufeff', '  \r'];
  const ENDS = ['\n', '\n', '\r\n', '\n\n', '\n \n', '\n\r\n'];
  function stream(next: (n: number) => number): string {
    let out = '';
    for (let n = 1 + next(20); n > 0; n--) {
      const value = next(25) ? VALUES[next(VALUES.length)] : JUNK[next(JUNK.length)];
      out += `${SPACE[next(SPACE.length)]}${value}${SPACE[next(SPACE.length)]}`;
      // the last line without its line end, at times
      if (n > 1 || next(3)) out += ENDS[next(ENDS.length)];
    }
    return out;
  }
  const outcome = async (reader: typeof readJsonLines, chunks: Array<string | Uint8Array>) => {
    const values: unknown[] = [];
    try {
      for await (const v of reader((async function* () { yield* chunks; })(), (line) => { throw new Error(`bad line ${JSON.stringify(line)}`); })) values.push(v);
      return { values };
    } catch (err) {
      return { values, error: (err as Error).message };
    }
  };

  it('gives the values, and the bad line, the reader before gave on thousands of streams however they are cut', async () => {
    const next = rng(3702);
    const seen = { values: 0, errors: 0 };
    for (let n = 0; n < 3000; n++) {
      const body = stream(next);
      const bytes = new TextEncoder().encode(body);
      const cuts = [...new Set(Array.from({ length: next(16) }, () => next(bytes.length + 1)))].sort((a, b) => a - b);
      const chunks = n % 2 ? [0, ...cuts].map((at, i, all) => bytes.slice(at, all[i + 1] ?? bytes.length)) : [0, ...cuts].map((at, i, all) => body.slice(at, all[i + 1] ?? body.length));
      const before = await outcome(readJsonLinesBefore, chunks);
      expect(await outcome(readJsonLines, chunks)).toEqual(before);
      seen.values += before.values.length;
      if (before.error) seen.errors++;
    }
    expect(seen.values).toBeGreaterThan(5000);
    expect(seen.errors).toBeGreaterThan(300);
  });
});

describe('the Anthropic and Ollama readers of a stream, a chunk at a time', () => {
  const settings = { model: null, stream: true, http: null };
  const answerOf = (contentType: string, chunks: Array<string | Uint8Array>): TargetAnswer => ({ headers: {}, contentType, chunks: (async function* () { yield* chunks; })() as AsyncIterable<Buffer> });
  const outcome = <T>(read: Promise<T>): Promise<{ value: T } | { error: string }> => read.then((value) => ({ value }), (err: Error) => ({ error: `${err.constructor.name}: ${err.message}` }));
  /** cut into byte chunks anywhere (inside a character too) */
  const cut = (body: string, next: (n: number) => number) => {
    const bytes = new TextEncoder().encode(body);
    const cuts = [...new Set(Array.from({ length: next(12) }, () => next(bytes.length + 1)))].sort((a, b) => a - b);
    return [0, ...cuts].map((at, i, all) => bytes.slice(at, all[i + 1] ?? bytes.length));
  };

  function throwStreamedError(payload: any): never {
    const message = String(payload.error?.message ?? 'unknown');
    if (payload.error?.type === 'overloaded_error' || payload.error?.type === 'api_error') {
      throw new TargetUnavailableError(`the target streamed an error: ${message}`, undefined, { kind: 'streamed-error', detail: message });
    }
    throw new TargetProtocolError(`the target streamed an error: ${message}`, { kind: 'streamed-error', detail: message });
  }
  /** the Anthropic readers' streams as they were, an await for each event, kept to compare with */
  async function readAnthropicBefore(answer: TargetAnswer): Promise<AgentAnswer> {
    let text = '';
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    for await (const { event, data } of readServerSentEventsBefore(answer.chunks)) {
      const payload = streamedJson(data);
      const type = payload?.type ?? event;
      if (type === 'content_block_start' && payload.content_block?.type === 'tool_use') {
        blocks.set(Number(payload.index ?? blocks.size), { id: String(payload.content_block.id ?? ''), name: String(payload.content_block.name ?? ''), json: '' });
      } else if (type === 'content_block_delta' && payload.delta?.type === 'input_json_delta') {
        const block = blocks.get(Number(payload.index));
        if (block) block.json += String(payload.delta.partial_json ?? '');
      } else if (type === 'content_block_delta' && payload.delta?.type === 'text_delta') text += String(payload.delta.text ?? '');
      else if (type === 'content_block_start' && payload.content_block?.type === 'text') text += String(payload.content_block.text ?? '');
      else if (type === 'message_stop') break;
      else if (type === 'error') throwStreamedError(payload);
    }
    const calls = [...blocks.entries()].sort(([a], [b]) => a - b).filter(([, b]) => b.name).map(([i, b]) => ({ id: b.id || `toolu_${i}`, name: b.name, arguments: parsedArguments(b.json) }));
    return { text, calls };
  }
  /** the Ollama reader's stream as it was, an await for each line */
  async function readOllamaBefore(answer: TargetAnswer): Promise<AgentAnswer> {
    type OllamaChunk = { message?: { content?: unknown; tool_calls?: Array<{ id?: unknown; function?: { name?: unknown; arguments?: unknown } }> }; done?: boolean; error?: unknown };
    let text = '';
    const calls: ToolCall[] = [];
    const bad = (): never => {
      throw new TargetProtocolError('a streamed line is not JSON');
    };
    for await (const value of readJsonLinesBefore(answer.chunks, bad)) {
      const chunk = value as OllamaChunk;
      if (chunk?.error) throw new TargetProtocolError(`the target streamed an error: ${String(chunk.error)}`, { kind: 'streamed-error', detail: String(chunk.error) });
      if (typeof chunk?.message?.content === 'string') text += chunk.message.content;
      const from = calls.length;
      calls.push(...(Array.isArray(chunk?.message?.tool_calls) ? chunk.message.tool_calls : []).map((c, i) => toolCall(c.id, c.function?.name, c.function?.arguments, from + i)).filter(isCall));
      if (chunk?.done) break;
    }
    return { text, calls };
  }

  it('reads every Anthropic stream as the readers before did, to the same text and calls or the same error', async () => {
    const DATA = [
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}', '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"lo"}}',
      '{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"send"}}', '{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"to\\":1}"}}',
      '{"type":"ping"}', '{}', '1', '{"delta":{"type":"text_delta","text":"named"}}', '{"type":"message_stop"}', '{"type":"error","error":{"type":"overloaded_error","message":"busy"}}',
      '{"type":"error","error":{"message":"bad"}}', 'not json', '',
    ];
    const WEIGHT = DATA.map((d) => (/error|^not|^$|stop/.test(d) ? 1 : 5));
    const PICKS = DATA.flatMap((d, i) => Array.from({ length: WEIGHT[i] }, () => d));
    const next = rng(3703);
    const seen = { text: 0, error: 0 };
    for (let n = 0; n < 1500; n++) {
      let body = '';
      for (let e = 1 + next(12); e > 0; e--) body += `${next(3) ? '' : 'event: content_block_delta\n'}${next(6) ? '' : ': ping\r\n'}data: ${PICKS[next(PICKS.length)]}${['\n\n', '\r\n\r\n', '\r\r'][next(3)]}`;
      const chunks = cut(body, next);
      const before = await outcome(readAnthropicBefore(answerOf('text/event-stream', chunks)));
      expect(await outcome(readAgentAnswer(apiFormat('anthropic'), answerOf('text/event-stream', chunks), settings))).toEqual(before);
      expect(await outcome(readAnswer(apiFormat('anthropic'), answerOf('text/event-stream', chunks), settings))).toEqual('value' in before ? { value: before.value.text } : before);
      if ('error' in before) seen.error++;
      else if (before.value.text) seen.text++;
    }
    expect(seen.text).toBeGreaterThan(500);
    expect(seen.error).toBeGreaterThan(200);
  });

  it('reads every Ollama stream as the reader before did, to the same text and calls or the same error', async () => {
    const LINES = [
      '{"message":{"role":"assistant","content":"Hel"},"done":false}', '{"message":{"content":"lo é😀"},"done":false}', '{"message":{"content":"","tool_calls":[{"function":{"name":"send","arguments":{"to":1}}}]},"done":false}',
      '{"message":{"tool_calls":[{"id":"c1","function":{"name":"look","arguments":"{}"}},{"function":{}}]}}', '{}', '1', 'null', '{"message":{"content":5}}',
      '{"message":{"content":"end"},"done":true}', '{"error":"model not found"}', 'not json', ' ', '',
    ];
    const WEIGHT = LINES.map((d) => (/error|^not|done":true/.test(d) ? 1 : 5));
    const PICKS = LINES.flatMap((d, i) => Array.from({ length: WEIGHT[i] }, () => d));
    const next = rng(3704);
    const seen = { text: 0, calls: 0, error: 0 };
    for (let n = 0; n < 1500; n++) {
      let body = '';
      for (let l = 1 + next(12); l > 0; l--) body += `${PICKS[next(PICKS.length)]}${['\n', '\r\n', '\n\n'][next(3)]}`;
      const chunks = cut(body, next);
      const before = await outcome(readOllamaBefore(answerOf('application/x-ndjson', chunks)));
      expect(await outcome(readAgentAnswer(apiFormat('ollama'), answerOf('application/x-ndjson', chunks), settings))).toEqual(before);
      expect(await outcome(readAnswer(apiFormat('ollama'), answerOf('application/x-ndjson', chunks), settings))).toEqual('value' in before ? { value: before.value.text } : before);
      if ('error' in before) seen.error++;
      else if (before.value.text) seen.text++;
      if ('value' in before && before.value.calls.length) seen.calls++;
    }
    expect(seen.text).toBeGreaterThan(500);
    expect(seen.calls).toBeGreaterThan(300);
    expect(seen.error).toBeGreaterThan(200);
  });
});

describe('readJsonLines', () => {
  it('reads lines cut anywhere, skips blank ones, and reads the last line without its newline', async () => {
    const lines: unknown[] = [];
    const long = 'y'.repeat(1 << 20);
    const body = `{"a":1}\n\n{"b":"${long}"}\n{"c":`;
    const chunks = [...Array.from({ length: Math.ceil(body.length / 1000) }, (_, i) => body.slice(i * 1000, (i + 1) * 1000)), '3}'];
    for await (const v of readJsonLines((async function* () { yield* chunks; })(), (line) => { throw new Error(line); })) lines.push(v);
    expect(lines).toEqual([{ a: 1 }, { b: long }, { c: 3 }]);
  });
});

describe('fillBodyTemplate and answerAtPath', () => {
  it('escapes the prompt for a JSON string and inserts the history as an array', () => {
    const turns = [{ role: 'user' as const, content: 'say "hi"\n' }];
    expect(JSON.parse(fillBodyTemplate('{"q": "{{prompt}}", "all": {{messages}}}', turns))).toEqual({ q: 'say "hi"\n', all: turns });
  });
  it('fills a bare {{prompt}} standing for a value as a whole JSON string', () => {
    const turns = [{ role: 'user' as const, content: 'say "hi"' }];
    expect(JSON.parse(fillBodyTemplate('{"input": {{prompt}}, "list": [{{prompt}}], "q": "Q: {{prompt}}"}', turns))).toEqual({ input: 'say "hi"', list: ['say "hi"'], q: 'Q: say "hi"' });
  });
  it('refuses a template that does not give JSON', () => {
    expect(() => fillBodyTemplate('q={{prompt}}', [{ role: 'user', content: 'x' }])).toThrow(TargetProtocolError);
  });
  it('follows dot paths through objects and arrays', () => {
    const answer = { choices: [{ message: { content: 'text' } }], n: 3, nested: { a: 1 } };
    expect(answerAtPath(answer, 'choices.0.message.content')).toBe('text');
    expect(answerAtPath(answer, 'n')).toBe('3');
    expect(answerAtPath(answer, 'nested')).toBe('{"a":1}');
    expect(() => answerAtPath(answer, 'choices.1.message')).toThrow(/response_path "choices.1.message"/);
  });
});
