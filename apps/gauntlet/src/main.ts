import 'reflect-metadata';
import { ConfigError, loadConfig } from './config/config';
import { createLogger } from './platform/logger';
import { createRuntime, Runtime } from './runtime';
import { createHttpApp } from './http/server';
import { registerOwnListener } from '@gauntlet/outbound';
import { DocumentCheckpoints } from '@gauntlet/read-models';
import { LogRelay } from '@gauntlet/subscriptions';
import { scanJobsFrom, SCAN_JOBS_TOPIC } from './scanning/scan-jobs';
import { ScanWorker } from './scanning/scan-worker';
import { startWebhookDispatch, startWebhookRelay } from './webhooks/webhook-engine';

/**
 * `gauntlet [role]`: all (default: every role in one process, the embedded deployment),
 * api, projector, scanner, relay, dispatcher; or `projections:rebuild`.
 */
export const ROLES = ['all', 'api', 'projector', 'scanner', 'relay', 'dispatcher'] as const;
export type Role = (typeof ROLES)[number];

export async function startRoles(runtime: Runtime, roles: Role[]): Promise<{ url?: string }> {
  const has = (r: Role) => roles.includes('all') || roles.includes(r);
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
  }
  if (has('dispatcher')) runtime.onClose(await startWebhookDispatch(runtime));
  if (has('scanner')) {
    const worker = new ScanWorker(runtime, { concurrency: runtime.config.scannerConcurrency, leaseMs: runtime.config.scanLeaseMs });
    await worker.start();
    runtime.onClose(() => worker.stop());
  }
  if (has('api')) {
    const app = await createHttpApp(runtime);
    await app.listen({ port: runtime.config.port, host: runtime.config.host });
    result.url = await app.getUrl();
    const bound = app.getHttpServer().address();
    if (bound && typeof bound === 'object') {
      const forget = registerOwnListener(bound.port);
      runtime.onClose(async () => forget());
    }
    runtime.onClose(() => app.close());
    runtime.log.info({ url: result.url, roles }, 'gauntlet api listening');
  }
  return result;
}

async function main(argv: string[]): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
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
  await startRoles(runtime, roles);
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

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`gauntlet failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
