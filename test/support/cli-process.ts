import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/** the built CLI, as a user runs it */
const BIN = join(resolve(__dirname, '../..'), 'bin', 'gauntlet.js');

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/**
 * `gauntlet <args>` in its own process, in `cwd` (its HOME too, so nothing of the machine's is
 * read), killed after 110 s; `onOutput` sees stdout as it grows (to interrupt it midway, say).
 */
export function runGauntlet(args: string[], cwd: string, env: Record<string, string> = {}, onOutput?: (out: string, child: ChildProcess) => void): Promise<CliRun> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    child.stdout.on('data', (d) => {
      out += d;
      onOutput?.(out, child);
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}
