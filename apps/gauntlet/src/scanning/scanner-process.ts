import { ChildProcess, fork } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../config/config';

/**
 * The scanner role of `all` in a child process of its own. Judging what a target wrote, reading its
 * answers and driving Chromium cost CPU in proportion to the target; in the API's process that CPU
 * would hold up every other account's requests. The child runs the same scanner role the distributed
 * deployment runs as its own process, on the same stores (SQLite in WAL mode; only the child consumes
 * the scanners' group, and it also pulls pending scans from the read model), at a lower CPU priority
 * than the API. It is handed what is this process's alone: its configuration and the port the API
 * bound (never a destination for a scanned page). It is restarted if it dies (its scans are ended by
 * the lease reaper as when a distributed scanner is lost), stopped with the service, and stops itself
 * if the service is gone.
 */

/** the variable that tells the entry point it was started as a scanner child, and by whom */
export const SCANNER_CHILD = 'GAUNTLET_SCANNER_OF';

/** restart waits: from 1 s doubling to 30 s; a child that ran a minute starts the count again */
const RESTART_MS = { first: 1_000, max: 30_000, stable: 60_000 };
/** a stopping child ends its running scans first (their drivers closed, their endings recorded) */
const STOP_DEADLINE_MS = 30_000;

type ToChild = { kind: 'start'; config: Config; ownPorts: number[] } | { kind: 'stop' };
type ToParent = { kind: 'ready' } | { kind: 'started' } | { kind: 'failed'; message: string };

export interface ScannerChildOptions {
  /** the built entry point the child runs (the service's main.js) */
  entry: string;
  config: Config;
  /** ports this service listens on besides config.port (the one PORT=0 bound) */
  ownPorts: number[];
  log: Logger;
}

/** Starts the scanner child and keeps it running until stop(). */
export class ScannerChild {
  private child: ChildProcess | null = null;
  private stopping = false;
  private restarts = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: ScannerChildOptions) {}

  /** resolves once the child's scanner has started; rejects with why it could not */
  async start(): Promise<void> {
    const child = fork(this.options.entry, ['scanner'], {
      env: { ...process.env, [SCANNER_CHILD]: String(process.pid) },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    const startedAt = Date.now();
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null) => reject(new Error(`the scanner process exited (${signal ?? code}) before it started`));
      child.once('exit', onExit);
      child.on('message', (m: ToParent) => {
        if (m.kind === 'ready') child.send({ kind: 'start', config: this.options.config, ownPorts: this.options.ownPorts } satisfies ToChild);
        else if (m.kind === 'failed') reject(new Error(`the scanner process could not start: ${m.message}`));
        else if (m.kind === 'started') {
          child.off('exit', onExit);
          resolve();
        }
      });
    });
    // scans yield the CPU to the API's requests when both want it
    try {
      setPriority(child.pid!, constants.priority.PRIORITY_BELOW_NORMAL);
    } catch {
      // not allowed here: the child's own event loop is what keeps the API answering
    }
    child.once('exit', (code, signal) => this.exited(code, signal, Date.now() - startedAt));
    this.options.log.info({ pid: child.pid }, 'scanner process started');
  }

  private exited(code: number | null, signal: string | null, ranMs: number): void {
    this.child = null;
    if (this.stopping) return;
    if (ranMs >= RESTART_MS.stable) this.restarts = 0;
    const wait = Math.min(RESTART_MS.max, RESTART_MS.first * 2 ** this.restarts++);
    this.options.log.error({ code, signal, restart_in_ms: wait }, 'the scanner process exited; restarting it');
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopping) return;
      this.start().catch((err) => {
        this.options.log.error({ err }, 'the scanner process did not start again');
        this.exited(null, null, 0);
      });
    }, wait);
  }

  /** asks the child to stop (its scans end as a stopped scanner's do), then kills it after a deadline */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
    if (child.connected) child.send({ kind: 'stop' } satisfies ToChild);
    else child.kill('SIGTERM');
    await exited;
    clearTimeout(kill);
  }
}

/**
 * The child's side: waits for its configuration, runs the scanner role with it (`start`, given the
 * configuration and ports; answers a function that stops it), and stops when told, when the service
 * is gone (the channel to it closed), or on SIGINT/SIGTERM (a terminal's Ctrl-C reaches both).
 */
export function runScannerChild(start: (config: Config, ownPorts: number[]) => Promise<() => Promise<void>>): void {
  let stop: (() => Promise<void>) | null = null;
  let stopping = false;
  const end = async () => {
    if (stopping) return;
    stopping = true;
    await stop?.().catch(() => undefined);
    process.exit(0);
  };
  const send = (m: ToParent) => process.send?.(m);
  process.on('message', (m: ToChild) => {
    if (m.kind === 'stop') void end();
    else if (m.kind === 'start' && !stop) {
      start({ ...m.config, secretsKey: Buffer.from(m.config.secretsKey) }, m.ownPorts).then(
        (stopIt) => {
          stop = stopIt;
          send({ kind: 'started' });
        },
        (err: unknown) => {
          send({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
          process.exit(1);
        },
      );
    }
  });
  process.on('disconnect', () => void end());
  process.on('SIGINT', () => void end());
  process.on('SIGTERM', () => void end());
  send({ kind: 'ready' });
}
