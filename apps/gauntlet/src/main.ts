import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config/config';
import { createLogger } from './platform/logger';
import { createRuntime, Runtime } from './runtime';
import { createHttpApp } from './server';
import { freePortAfter, registerOwnListener } from '@gauntlet/outbound';
import { DocumentCheckpoints } from '@gauntlet/read-models';
import { LogRelay } from '@gauntlet/subscriptions';
import { scanJobsFrom, SCAN_JOBS_TOPIC } from './scanning/scan-jobs';
import { ScanWorker } from './scanning/scan-worker';
import { runScannerChild, SCANNER_CHILD, ScannerChild } from './scanning/scanner-process';
import { startWebhookDispatch, startWebhookRelay } from './webhooks/webhook-engine';
import { hostname } from 'node:os';
import { Scheduler } from './schedules/scheduler';
import { startRegressionWatch } from './scans/regressions/regression-watch';

/**
 * `gauntlet [role]`: all (default: every role in one process, the embedded deployment),
 * api, projector, scanner, relay, dispatcher, scheduler; or `projections:rebuild`.
 */
export const ROLES = ['all', 'api', 'projector', 'scanner', 'relay', 'dispatcher', 'scheduler'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The built service's entry point (this file compiled, or the package's stub when bundled): what
 * the `all` role starts its scanner child from.
 */
export const SERVICE_ENTRY = __filename;

export interface RoleOptions {
  /**
   * Where the `all` role runs its scanner: `process` (the default), a supervised child process on
   * the same stores, so no scan's CPU holds up the API's event loop (scanning/scanner-process.ts);
   * `here`, in this process, for tests that look inside one process. A `scanner` role named on its
   * own always runs where it is started.
   */
  scanners?: 'process' | 'here';
}

export async function startRoles(runtime: Runtime, roles: Role[], options: RoleOptions = {}): Promise<{ url?: string }> {
  const has = (r: Role) => roles.includes('all') || roles.includes(r);
  const scannerChild = roles.includes('all') && (options.scanners ?? 'process') === 'process';
  const result: { url?: string } = {};
  // our own listeners are never a destination for a scanned page or an outbound request: the
  // configured port in every role (a scanner beside its api on one host), the bound one below
  const forgetPort = registerOwnListener(runtime.config.port);
  runtime.onClose(async () => forgetPort());
  // the api waits on the projector for read-your-writes; in one process it is local and wakes at once
  if (has('projector')) await runtime.projector.start();
  if (has('relay')) {
    const { events, documents, bus } = runtime.infra;
    const relay = new LogRelay({
      store: events, checkpoints: new DocumentCheckpoints(documents), bus, name: 'scan-jobs-relay', log: runtime.log,
      route: { topic: SCAN_JOBS_TOPIC, filter: { eventTypes: ['ScanRequested'] }, toMessages: scanJobsFrom },
    });
    await relay.start();
    runtime.onClose(() => relay.stop());
    runtime.onClose(await startWebhookRelay(runtime));
    runtime.onClose(await startRegressionWatch(runtime));
  }
  if (has('scheduler')) {
    // several schedulers may run: each firing is decided on the schedule's stream, not here
    const scheduler = new Scheduler(
      { writePath: runtime.writePath, docs: runtime.infra.documents, config: runtime.config, clock: runtime.clock, log: runtime.log },
      { tickMs: runtime.config.schedulerTickMs, graceMs: runtime.config.schedulerGraceMs, id: `${hostname()}:${process.pid}` },
    );
    scheduler.start();
    runtime.onClose(() => scheduler.stop());
  }
  if (has('dispatcher')) runtime.onClose(await startWebhookDispatch(runtime));
  if (has('scanner') && !scannerChild) {
    const worker = new ScanWorker(runtime, { concurrency: runtime.config.scannerConcurrency, leaseMs: runtime.config.scanLeaseMs });
    await worker.start();
    runtime.onClose(() => worker.stop());
  }
  if (has('api')) {
    const app = await createHttpApp(runtime);
    runtime.onClose(() => app.close());
    const { port, host } = runtime.config;
    try {
      await app.listen({ port, host });
    } catch (err) {
      throw await listenProblem(err, port, host);
    }
    const bound = app.getHttpServer().address() as AddressInfo;
    // the port actually bound (PORT=0 picks one) is ours too: never a destination for a scanned page
    const forget = registerOwnListener(bound.port);
    runtime.onClose(async () => forget());
    const address = `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
    // a connectable address for callers; the log names the one actually bound
    result.url = await app.getUrl();
    const everywhere = bound.address === '0.0.0.0' || bound.address === '::';
    runtime.log.info(
      { address, url: result.url, roles },
      `gauntlet api listening on ${address}${everywhere ? ` (every interface; from this machine http://localhost:${bound.port})` : ''}`,
    );
    // the scanner child once the API is bound: the port it bound is never a scanned page's destination either
    if (scannerChild) {
      const scanners = new ScannerChild({ entry: SERVICE_ENTRY, config: runtime.config, ownPorts: [bound.port], log: runtime.log.child({ component: 'scanner-process' }) });
      runtime.onClose(() => scanners.stop());
      await scanners.start();
    }
  }
  return result;
}

/** The scanner child's side of the `all` role: the scanner role, with the configuration and ports the service hands it. */
function scannerOfService(): void {
  runScannerChild(async (config, ownPorts) => {
    const runtime = await createRuntime(config, createLogger(config.logLevel).child({ process: 'scanner' }));
    try {
      for (const port of ownPorts) {
        const forget = registerOwnListener(port);
        runtime.onClose(async () => forget());
      }
      await startRoles(runtime, ['scanner']);
      runtime.log.info({ pid: process.pid }, 'scanner process ready');
    } catch (err) {
      await runtime.close().catch(() => undefined);
      throw err;
    }
    return () => runtime.close();
  });
}

/** A start-up problem the operator fixes with a setting: one line, never a stack trace. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
  constructor(message: string, readonly code?: string, readonly suggestedPort?: number | null) {
    super(message);
  }
}

/** the port or address is not ours to take: say which variable or flag picks another */
export async function listenProblem(err: unknown, port: number, host: string): Promise<unknown> {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE') {
    // the port suggested is one free now
    const free = await freePortAfter(port, host);
    const example = free === null ? '' : `, e.g. PORT=${free} npm start, or npm start -- --port ${free}`;
    return new StartupError(`port ${port} on ${host} is already in use (another Gauntlet, perhaps an npm start left running): choose another with PORT${example}`, code, free);
  }
  if (code === 'EACCES') return new StartupError(`port ${port} needs privileges this user lacks: choose one above 1023 with PORT or --port`, code);
  if (code === 'EADDRNOTAVAIL') return new StartupError(`address ${host} is not one of this machine's: set HOST (or --host) to one of its addresses, or 0.0.0.0 for every interface`, code);
  return err;
}

async function main(argv: string[]): Promise<void> {
  let config;
  try {
    // `--port` and `--host` win over PORT and HOST (npm start -- --port 3001)
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { port: { type: 'string' }, host: { type: 'string' } } });
    argv = positionals;
    config = loadConfig({ ...process.env, ...(values.port !== undefined && { PORT: values.port }), ...(values.host !== undefined && { HOST: values.host }) });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${(err as Error).message}: gauntlet [roles] [--port N] [--host ADDRESS]\n`);
    process.exit(1);
  }
  const log = createLogger(config.logLevel);
  const command = argv[0] ?? 'all';
  const runtime = await createRuntime(config, log);

  if (command === 'projections:rebuild') {
    const { events } = await runtime.projector.rebuild();
    log.info({ events }, 'read models rebuilt from the log');
    await runtime.close();
    return;
  }
  const roles = command.split(',') as Role[];
  const unknown = roles.filter((r) => !ROLES.includes(r));
  if (unknown.length) {
    process.stderr.write(`Unknown role ${unknown.join(', ')}: use one or more of ${ROLES.join(', ')} (comma-separated), or projections:rebuild\n`);
    process.exit(1);
  }
  try {
    await startRoles(runtime, roles);
  } catch (err) {
    await runtime.close().catch(() => undefined);
    throw err;
  }
  log.info({ roles, pid: process.pid }, 'gauntlet roles started');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

if (require.main === module && process.env[SCANNER_CHILD] && process.send) scannerOfService();
else if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`gauntlet failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
