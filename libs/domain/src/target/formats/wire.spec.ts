import { TargetProtocolError } from '../target-errors';
import { answerAtPath, fillBodyTemplate } from './json-template';
import { readJsonLines } from './json-lines';
import { readServerSentEvents, ServerSentEvent } from './server-sent-events';

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

describe('readServerSentEvents read a chunk at a time', () => {
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
  const PIECES = ['data', 'data:', 'data: ', 'event:', 'event: x', 'id: 1', ':', ': c', 'x', ' ', '{"a":1}', '[DONE]', 'é', '☃', '😀', '\r', '\n', '\r\n', '\n\n', '\r\r', ':x\n'];
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

  it('reads fifty thousand events of a few characters each, in chunks cut across them', async () => {
    const body = 'data: {"a":1}\r\n\r\n'.repeat(50_000);
    const chunks = Array.from({ length: Math.ceil(body.length / 1000) }, (_, i) => body.slice(i * 1000, (i + 1) * 1000));
    expect(await all(readServerSentEvents, chunks)).toHaveLength(50_000);
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
