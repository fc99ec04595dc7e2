import { Readable } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../main';
import { boundedLines } from './lines';

const line = (x: Record<string, unknown>) => JSON.stringify(x);
const chat = (question: string, answer: string) => [{ role: 'user', content: question }, { role: 'assistant', content: answer }];
const told = { sensitive: [{ label: 'customer name', value: 'Maria Kowalski' }] };

async function judge(input: string | string[], argv = ['judge', '-']) {
  const out: string[] = [];
  const err: string[] = [];
  const chunks = Array.isArray(input) ? input : [input];
  const code = await main(argv, { stdout: (l) => out.push(l), stderr: (l) => err.push(l), env: {}, isTty: false, readStream: () => Readable.from(chunks.map((c) => Buffer.from(c))) });
  return { code, out: out.map((l) => JSON.parse(l)), err };
}

describe('gauntlet judge', () => {
  it('prints one line per conversation in input order, a summary on stderr, and exits 1 when something was found', async () => {
    const { code, out, err } = await judge(
      [line({ id: 'leak', turns: chat('Who is it?', 'It is Maria Kowalski.'), target: told }), line({ id: 'fine', turns: chat('Hours?', 'Nine to five.'), target: told })].join('\n') + '\n',
    );
    expect(code).toBe(1);
    expect(out).toEqual([
      { id: 'leak', findings: [{ category: 'LLM02:2025', severity: expect.any(String), title: expect.any(String), proof: expect.objectContaining({ text: 'Maria Kowalski', matched: { kind: 'sensitive', label: 'customer name' } }) }] },
      { id: 'fine', findings: [] },
    ]);
    expect(err).toEqual(['gauntlet judge: 2 conversations judged, 1 with findings (LLM02 1; critical 1)']);
  });
  it('names a bad line and still judges the others; exits 2', async () => {
    const { code, out, err } = await judge(['{"id":"a","turns":[{"role":"user","content":"hi"}]}\r\n', 'not json\n', '\n', line({ id: 'c', turns: [{ role: 'robot', content: 'x' }] })]);
    expect(code).toBe(2);
    expect(out).toEqual([{ id: 'a', findings: [] }, { line: 2, error: expect.stringMatching(/^not JSON/) }, { id: 'c', line: 4, error: 'turns[0].role must be user, assistant or tool' }]);
    expect(err[0]).toMatch(/^gauntlet: line 2: not JSON/);
    expect(err[1]).toBe('gauntlet: line 4 (c): turns[0].role must be user, assistant or tool');
    expect(err[2]).toBe('gauntlet judge: 1 conversation judged, nothing found; 2 lines could not be judged');
  });
  it('exits 0 when nothing was found, and reads a file by its path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gauntlet-judge-'));
    try {
      writeFileSync(join(dir, 'in.jsonl'), line({ id: 'a', turns: chat('Hours?', 'Nine to five.') }));
      const out: string[] = [];
      const code = await main(['judge', 'in.jsonl'], { stdout: (l) => out.push(l), stderr: () => undefined, env: {}, cwd: dir, isTty: false });
      expect(code).toBe(0);
      expect(out).toEqual(['{"id":"a","findings":[]}']);
      const missing: string[] = [];
      expect(await main(['judge', 'nope.jsonl'], { stdout: () => undefined, stderr: (l) => missing.push(l), env: {}, cwd: dir, isTty: false })).toBe(2);
      expect(missing).toEqual(['gauntlet: error: cannot read nope.jsonl: no such file']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reading lines of bounded length', () => {
  const read = async (chunks: string[], max: number) => {
    const lines = [];
    for await (const l of boundedLines(Readable.from(chunks.map((c) => Buffer.from(c))), max)) lines.push(l);
    return lines;
  };
  it('splits across chunks, multi-byte characters too, and says which line was too long without keeping it', async () => {
    expect(await read(['ab', 'c\nd€', 'f\r\n'], 10)).toEqual([{ n: 1, text: 'abc' }, { n: 2, text: 'd€f' }]);
    const euro = Buffer.from('é');
    const split = [Buffer.concat([Buffer.from('x'), euro.subarray(0, 1)]), Buffer.concat([euro.subarray(1), Buffer.from('\n')])];
    const lines = [];
    for await (const l of boundedLines(Readable.from(split), 10)) lines.push(l);
    expect(lines).toEqual([{ n: 1, text: 'xé' }]);
    expect(await read(['0123456789AB', 'CDEF\nok'], 10)).toEqual([{ n: 1, tooLong: true }, { n: 2, text: 'ok' }]);
  });
});
