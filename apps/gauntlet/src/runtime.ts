import { SecretBox, VerifiedTokens } from '@gauntlet/auth';
import { CachingDocumentStore, coreProjections, Projection, Projector } from '@gauntlet/read-models';
import type { Logger } from 'pino';
import type { Config } from './config/config';
import type { Decider, DomainEvent } from '@gauntlet/domain';
import { Aggregates, CommandContext, Decided } from './platform/aggregates';
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
  /** bearer tokens passport-jwt has verified in this process, until they expire */
  verifiedTokens: VerifiedTokens;
  metrics: Metrics;
  /**
   * The api's write path: decide and append, then wait until the read models include the change,
   * so the response and the client's next GET agree (read-your-writes).
   */
  commit<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, streamId: string, command: C, context: CommandContext): Promise<Decided<E, S>>;
  /** run on shutdown, last registered first */
  onClose(fn: () => Promise<void>): void;
  close(): Promise<void>;
}

export const RUNTIME = Symbol('RUNTIME');

export async function createRuntime(config: Config, log: Logger, extraProjections: Projection<any>[] = []): Promise<Runtime> {
  const opened = await openInfrastructure(config, log);
  // the account read on every authenticated request and polled scan statuses come from memory
  // while this process's projector runs: it writes those collections, so it keeps them current
  const documents = new CachingDocumentStore(opened.documents, { collections: ['accounts', 'scans'], enabled: () => projector.running });
  const infra: Infrastructure = { ...opened, documents };
  const metrics = new Metrics();
  const projector: Projector = new Projector(infra.events, documents, [...coreProjections, ...extraProjections], { log });
  const closers: (() => Promise<void>)[] = [];
  const aggregates = new Aggregates(infra.events, metrics);
  return {
    config,
    log,
    infra,
    metrics,
    projector,
    aggregates,
    async commit(decider, streamId, command, context) {
      const decided = await aggregates.handle(decider, streamId, command, context);
      if (decided.position !== null) await projector.waitFor(decided.position);
      return decided;
    },
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
