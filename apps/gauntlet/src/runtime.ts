import { SecretBox } from '@gauntlet/auth';
import { coreProjections, Projection, Projector } from '@gauntlet/read-models';
import type { Logger } from 'pino';
import type { Config } from './config/config';
import { Aggregates } from './platform/aggregates';
import { Infrastructure, openInfrastructure } from './platform/infrastructure';
import { Metrics } from './platform/metrics';

/**
 * The composition root: everything a role needs, built once, before Nest starts. Nest modules
 * receive these objects as providers; they do not build them.
 */
export interface Runtime {
  config: Config;
  log: Logger;
  infra: Infrastructure;
  aggregates: Aggregates;
  projector: Projector;
  secrets: SecretBox;
  metrics: Metrics;
  /** run on shutdown, last registered first */
  onClose(fn: () => Promise<void>): void;
  close(): Promise<void>;
}

export const RUNTIME = Symbol('RUNTIME');

export async function createRuntime(config: Config, log: Logger, extraProjections: Projection<any>[] = []): Promise<Runtime> {
  const infra = await openInfrastructure(config, log);
  const metrics = new Metrics();
  const projector = new Projector(infra.events, infra.documents, [...coreProjections, ...extraProjections], { log });
  const closers: (() => Promise<void>)[] = [];
  return {
    config,
    log,
    infra,
    metrics,
    projector,
    aggregates: new Aggregates(infra.events, metrics),
    secrets: new SecretBox(config.secretsKey),
    onClose: (fn) => closers.push(fn),
    async close() {
      for (const fn of closers.reverse()) await fn().catch((err) => log.error({ err }, 'error while closing'));
      await projector.stop();
      await infra.close();
    },
  };
}
