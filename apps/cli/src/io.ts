import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Exit codes are the contract with CI systems, the same for every command: 0 passed, 1 gate failed, 2 anything else. */
export const EXIT = { passed: 0, belowThreshold: 1, error: 2 } as const;
export const CLI_VERSION = '0.1.0';

/** What a command touches of the outside world, so specs can run commands in-process. */
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  env: Record<string, string | undefined>;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  writeFile: (path: string, data: string | Uint8Array) => Promise<void>;
  /** a file to read as a stream, `-` for standard input */
  readStream: (path: string) => AsyncIterable<string | Uint8Array>;
  /** whether stdout is a terminal: a live progress line there, plain lines in a pipe or CI */
  isTty: boolean;
  /** rewrites the current terminal line (only called when isTty) */
  status: (line: string) => void;
  /** registers a Ctrl-C handler; returns the function that removes it */
  onInterrupt: (handler: () => void) => () => void;
  cwd: string;
}

export const defaultIo: CliIo = {
  stdout: (l) => process.stdout.write(l + '\n'),
  stderr: (l) => process.stderr.write(l + '\n'),
  env: process.env,
  fetch: (...args) => fetch(...args),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  now: () => Date.now(),
  writeFile: async (path, data) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, data);
  },
  readStream: (path) => (path === '-' ? process.stdin : createReadStream(path)),
  isTty: Boolean(process.stdout.isTTY) && !process.env.CI,
  status: (l) => process.stdout.write(`\r\x1b[2K${l}`),
  onInterrupt: (handler) => {
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  },
  cwd: process.cwd(),
};

/** A failure the user can act on: printed as one line, exit code 2, never a stack trace. */
export class CliError extends Error {}

/**
 * What the CLI prints for any failure: one line, never a stack trace (a user reads it, a CI log
 * keeps it). A CliError says what to do; anything else is a failure we did not foresee, told by
 * its kind and first line only, cut short (its text comes from code that may have held a value).
 */
export function oneLine(e: unknown): string {
  // our own errors are written for the user: several problems (a gauntlet.yaml checked whole) one a line, at most 20
  if (e instanceof CliError) return e.message.split('\n').slice(0, 20).join('\n');
  const first = String((e as Error)?.message ?? e).split('\n')[0].slice(0, 200);
  const kind = (e as Error)?.name && (e as Error).name !== 'Error' ? `${(e as Error).name}: ` : '';
  return `unexpected failure (${kind}${first}); this is a bug in gauntlet, please report it with the command that caused it`;
}
