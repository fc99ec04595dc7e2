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
