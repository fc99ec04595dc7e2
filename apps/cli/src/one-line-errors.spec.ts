import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from './commands/command';
import { CliError, oneLine } from './io';
import { main } from './main';

/** Whatever goes wrong, the CLI prints one line on stderr, never a stack trace and never a secret. */
describe('the CLI fails in one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-errors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (argv: string[], env: Record<string, string> = {}) => {
    const err: string[] = [];
    const out: string[] = [];
    const code = await main(argv, { stderr: (l) => err.push(l), stdout: (l) => out.push(l), env, cwd: dir, isTty: false });
    return { code, err, out };
  };
  const noStack = (lines: string[]) => expect(lines.join('\n')).not.toMatch(/\n\s+at |\bat .+\(.+:\d+:\d+\)/);

  it('refuses an alias bomb in gauntlet.yaml with the file and line', async () => {
    const levels = ['a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) levels.push(`${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(10).fill(`*${'abcdefghi'[i - 1]}`).join(', ')}]`);
    const file = join(dir, 'gauntlet.yaml');
    writeFileSync(file, [...levels, 'targets:', '  - url: http://127.0.0.1:9/v1', ''].join('\n'));
    const { code, err } = await run(['scan']);
    expect(code).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(new RegExp(`^gauntlet: error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:\\d+: the alias \\*d takes the file past`));
    noStack(err);
  });

  it('refuses ${ENV} in a target name without printing what it holds', async () => {
    writeFileSync(join(dir, 'leak.yaml'), 'targets:\n  - name: ${JWT_SECRET}\n    url: http://127.0.0.1:9/v1\n');
    const { code, err, out } = await run(['scan', '--config', 'leak.yaml'], { JWT_SECRET: 'jwt-secret-value-1234' });
    expect(code).toBe(2);
    expect(err).toEqual([expect.stringMatching(/leak\.yaml:2:5: targets\[0\]\.name holds a \$\{\.\.\.\} reference/)]);
    expect([...err, ...out].join('\n')).not.toContain('jwt-secret-value-1234');
  });

  it('never echoes a --sensitive value given without a label, nor a header without a name', async () => {
    const sensitive = await run(['scan', 'http://127.0.0.1:9/v1', '--sensitive', 'customer-record-4471']);
    expect(sensitive.code).toBe(2);
    expect(sensitive.err).toEqual(['gauntlet: error: --sensitive must be "label=value": one was given without a label (its value is not shown)']);
    const header = await run(['scan', 'http://127.0.0.1:9/v1', '--header', 'Bearer sk-live-abcdef']);
    expect(header.err.join('\n')).not.toContain('sk-live-abcdef');
    expect(header.code).toBe(2);
  });

  it('prints a failure nobody foresaw as one line, without its stack', async () => {
    const err: string[] = [];
    let code = -1;
    await runCommand({ io: { stderr: (l: string) => err.push(l) } as never, exit: (c) => (code = c) }, async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')\n    at somewhere (file.js:1:2)");
    });
    expect(code).toBe(2);
    expect(err).toEqual([`gauntlet: error: unexpected failure (TypeError: Cannot read properties of undefined (reading 'x')); this is a bug in gauntlet, please report it with the command that caused it`]);
    // our own errors may list several problems, one a line, bounded
    expect(oneLine(new CliError('first\nsecond'))).toBe('first\nsecond');
    expect(oneLine(new CliError(Array.from({ length: 30 }, (_, i) => `problem ${i}`).join('\n'))).split('\n')).toHaveLength(20);
    expect(oneLine('x'.repeat(500)).length).toBeLessThan(320);
  });
});
