import { ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

export interface RoleProcess {
  role: string;
  child: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** the test command exports the engines it started; a role uses only the ones its test names */
const ENGINE_VARIABLES = ['KAFKA_BROKERS', 'MONGODB_URL', 'EVENTSTORE_URL', 'FERRETDB_URL'];

/**
 * one role of the built service as its own process (`node dist/apps/gauntlet/src/main.js <role>`);
 * the deadline is for a role that hangs: in a whole run on two cores (Chromium suites beside it,
 * load 12) a healthy role has taken over a minute to say it is ready
 */
export function startRole(role: string, env: Record<string, string>, readyLine = 'gauntlet roles started', timeoutMs = 150_000): Promise<RoleProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !ENGINE_VARIABLES.includes(k)));
  const child = spawn(process.execPath, [join(root, 'dist/apps/gauntlet/src/main.js'), role], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const proc: RoleProcess = {
    role,
    child,
    output: () => out,
    kill: (signal = 'SIGTERM') =>
      new Promise<void>((r) => {
        if (child.exitCode !== null || child.signalCode !== null) return r();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          r();
        });
        child.kill(signal);
      }),
  };
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // a role that never became ready must not outlive the test
      reject(new Error(`${role} did not start within ${timeoutMs} ms:\n${out.slice(-3000)}`));
    }, timeoutMs);
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.length > 2_000_000) out = out.slice(-1_000_000);
      if (out.includes(readyLine)) {
        clearTimeout(timer);
        resolveStart(proc);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited (${code ?? signal}) before it was ready:\n${out.slice(-3000)}`));
    });
  });
}
