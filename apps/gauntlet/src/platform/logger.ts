import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';

/**
 * Logs: JSON lines, readable lines on a terminal (logDestination). Secrets never reach them:
 * known secret-bearing paths are censored, and request logging records method, route, status and
 * duration only (never headers or bodies).
 */
export function createLogger(level: string): Logger {
  const redact = {
    paths: [
      'password', '*.password', 'api_key', '*.api_key', 'secret', '*.secret', 'key', '*.key', 'authorization', '*.authorization',
      'headers.authorization', 'headers["x-api-key"]', '*.password_hash', 'password_hash', 'token', '*.token', 'access_token',
    ],
    censor: '[redacted]',
  };
  return pino({ ...common(level), redact }, logDestination());
}

const common = (level: string) => ({ level, base: { service: 'gauntlet' }, timestamp: pino.stdTimeFunctions.isoTime });

/**
 * Where logs go and in which form: JSON lines for a pipe, a file or a collector (and whenever
 * LOG_FORMAT=json); one readable line per entry on a terminal (or LOG_FORMAT=pretty):
 * `07:25:43 INFO  gauntlet api listening on http://127.0.0.1:3000  roles=["all"]`.
 */
export function logDestination(env: NodeJS.ProcessEnv = process.env, out: NodeJS.WriteStream = process.stdout): DestinationStream {
  const format = env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty' ? env.LOG_FORMAT : out.isTTY ? 'pretty' : 'json';
  if (format === 'json') return pino.destination(1);
  return { write: (line: string) => void out.write(readableLine(line)) };
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const QUIET = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

/** one pino JSON line as a person reads it: time, level, message, then the other fields as key=value */
export function readableLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : '';
  const fields = Object.entries(entry)
    .filter(([k, v]) => !QUIET.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? (/\s/.test(v) ? JSON.stringify(v) : v) : JSON.stringify(v)}`);
  return `${[time, (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5), String(entry.msg ?? '')].filter(Boolean).join(' ')}${fields.length ? `  ${fields.join(' ')}` : ''}\n`;
}

/** Nest's start-up chatter (each module loaded, each route mapped): debug, so info shows one line per event that matters */
const NEST_STARTUP = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/**
 * The one-line-per-request log: fixed fields only (request id, method, route template, status,
 * duration), never headers, bodies or URLs with their query, so there is nothing to redact, and
 * redaction's path walk cost more than the rest of a polled status read.
 */
export function createRequestLogger(level: string): Logger {
  return pino(common(level), logDestination());
}

const LISTEN_PROBLEM = /\blisten (EADDRINUSE|EACCES|EADDRNOTAVAIL)\b/;

/** Nest's own messages go to the same pino logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    if (context && NEST_STARTUP.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    // a port or address not ours to take: the start-up says it once, with the setting to change (main.ts listenProblem)
    if (context === 'NestApplication' && LISTEN_PROBLEM.test(String(message))) this.logger.debug({ context }, String(message));
    else this.logger.error({ context, trace }, String(message));
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
