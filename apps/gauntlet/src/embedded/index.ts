/**
 * The service's front door for embedded use: everything another app of this repository (the CLI,
 * the dashboard's code generator) may take of the service, and the only file of apps/gauntlet they
 * may import (test/structure.spec.ts refuses every other arrow between apps). Behind it the service
 * keeps its modules, handlers and DTOs its own.
 */
export { CallbackDnsUnavailable, EmbeddedService, serveEmbedded } from './embedded-service';
export type { CallbackListening, EmbeddedOptions } from './embedded-service';
export { targetBodyProblems, TargetBodyInvalid } from './target-body';
export type { TargetBody, TargetBodyProblem } from './target-body';
export { servedOpenApiDocument } from './openapi-document';
export { ConfigError } from '../config/config';
export { StartupError } from '../main';
