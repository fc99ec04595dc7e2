import { SecretBox, VerifiedTokens } from '@gauntlet/auth';
import { CachingDocumentStore, coreProjections, Projection, Projector } from '@gauntlet/read-models';
import type { Logger } from 'pino';
import type { Config } from './config/config';
import { WritePath } from './platform/write-path';
import { Clock, SystemClock } from './platform/clock';
import { Infrastructure, openInfrastructure } from './platform/infrastructure';
import { Metrics } from './platform/metrics';

/**
 * The composition root: everything a role needs, built once, before Nest starts. The roles
 * (main.ts) take what they run from here; the api's Nest module receives small named ports built
 * from it (app.module.ts), never this object.
 */
export interface Runtime {
  config: Config;
  log: Logger;
  clock: Clock;
  infra: Infrastructure;
  /** the write path of every command: decide, append, and (commit) wait for the read models */
  writePath: WritePath;
  projector: Projector;
  secrets: SecretBox;
  /** bearer tokens passport-jwt has verified in this process, until they expire */
  verifiedTokens: VerifiedTokens;
  metrics: Metrics;
  /** run on shutdown, last registered first */
  onClose(fn: () => Promise<void>): void;
  close(): Promise<void>;
}

export async function createRuntime(config: Config, log: Logger, extraProjections: Projection<any>[] = []): Promise<Runtime> {
  const opened = await openInfrastructure(config, log);
  // the account read on every authenticated request and polled scan statuses come from memory
  // while this process's projector runs: it writes those collections, so it keeps them current
  const documents = new CachingDocumentStore(opened.documents, { collections: ['accounts', 'scans'], enabled: () => projector.running });
  const infra: Infrastructure = { ...opened, documents };
  const metrics = new Metrics();
  const clock = new SystemClock();
  const projector: Projector = new Projector(infra.events, documents, [...coreProjections, ...extraProjections], { log });
  const closers: (() => Promise<void>)[] = [];
  return {
    config,
    log,
    clock,
    infra,
    metrics,
    projector,
    writePath: new WritePath(infra.events, projector, metrics, () => clock.now()),
    secrets: new SecretBox(config.secretsKey),
    verifiedTokens: new VerifiedTokens(),
    onClose: (fn) => closers.push(fn),
    async close() {
      for (const fn of closers.reverse()) await fn().catch((err) => log.error({ err }, 'error while closing'));
      await projector.stop();
      await infra.close();
    },
  };
}
