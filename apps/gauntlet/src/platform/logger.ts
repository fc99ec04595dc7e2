import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/**
 * JSON logs. Secrets never reach them: known secret-bearing paths are censored, and request
 * logging records method, route, status and duration only (never headers or bodies).
 */
export function createLogger(level: string): Logger {
  return pino({
    ...common(level),
    redact: {
      paths: [
        'password', '*.password', 'api_key', '*.api_key', 'secret', '*.secret', 'key', '*.key', 'authorization', '*.authorization',
        'headers.authorization', 'headers["x-api-key"]', '*.password_hash', 'password_hash', 'token', '*.token', 'access_token',
      ],
      censor: '[redacted]',
    },
  });
}

const common = (level: string) => ({ level, base: { service: 'gauntlet' }, timestamp: pino.stdTimeFunctions.isoTime });

/**
 * The one-line-per-request log: fixed fields only (request id, method, route template, status,
 * duration), never headers, bodies or URLs with their query, so there is nothing to redact, and
 * redaction's path walk cost more than the rest of a polled status read.
 */
export function createRequestLogger(level: string): Logger {
  return pino(common(level));
}

/** Nest's own messages go to the same pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
