import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '@gauntlet/domain';
import { WrongExpectedRevisionError } from '@gauntlet/eventstore';
import { ThrottlerException } from '@nestjs/throttler';
import { errorCodes, type FastifyReply, type FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

/** RFC 9457 problem details: the body of every error this service sends. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  errors?: { field: string; message: string }[];
  [extension: string]: unknown;
}

const TITLES: Record<number, [slug: string, title: string]> = {
  400: ['bad-request', 'Bad request'],
  401: ['unauthorized', 'Authentication required'],
  403: ['forbidden', 'Not allowed'],
  404: ['not-found', 'Not found'],
  405: ['method-not-allowed', 'Method not allowed'],
  409: ['conflict', 'Conflict with the current state'],
  413: ['payload-too-large', 'Request body too large'],
  414: ['uri-too-long', 'Request address too long'],
  415: ['unsupported-media-type', 'Unsupported media type'],
  422: ['unprocessable', 'Unprocessable'],
  429: ['rate-limited', 'Too many requests'],
  431: ['headers-too-large', 'Request headers too large'],
  500: ['internal', 'Internal error'],
  503: ['unavailable', 'Service unavailable'],
};

export const problemType = (slug: string) => `urn:gauntlet:problem:${slug}`;

/** Throw this for any error a client should see as-is. */
export class ProblemException extends HttpException {
  constructor(
    status: number,
    detail: string,
    readonly extras: { slug?: string; title?: string; errors?: Problem['errors']; headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
  ) {
    super(detail, status);
  }
}

/**
 * What fastify's own refusals mean to a client: their status, and a detail in our words (never
 * fastify's message, which echoes the request back).
 */
const FRAMEWORK_DETAILS: Record<string, [status: number, detail: string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'The request body exceeds the size limit.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Send the body as application/json.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The JSON body is empty.'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'The body is not valid JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body.'],
  FST_ERR_BAD_URL: [400, 'The request address is not validly encoded.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A part of the request address is too long.'],
};

/** fastify's message templates (without their arguments), to know its errors once Nest rewrapped them */
const FRAMEWORK_MESSAGES = Object.keys(FRAMEWORK_DETAILS).flatMap((code) => {
  const Make = (errorCodes as unknown as Record<string, new () => Error & { statusCode: number }>)[code];
  if (!Make) return [];
  const sample = new Make();
  return [{ code, status: sample.statusCode, prefix: sample.message.split('%s')[0] }];
});

function frameworkCodeOf(message: string, status: number): string | undefined {
  return FRAMEWORK_MESSAGES.find((m) => m.status === status && m.prefix.length > 2 && message.startsWith(m.prefix))?.code;
}

/** the store and bus drivers' ways of saying they cannot be reached (or are busy) right now */
const UNAVAILABLE_ERRORS = new Set([
  'MongoServerSelectionError', 'MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoNotConnectedError', 'MongoTopologyClosedError', 'MongoPoolClearedError',
  'UnavailableError', 'DeadlineExceededError', 'TimeoutError', 'NotLeaderError',
  'KafkaJSConnectionError', 'KafkaJSBrokerNotFound', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSRequestTimeoutError',
]);
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN)/;

function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return UNAVAILABLE_ERRORS.has(err.constructor.name) || UNAVAILABLE_ERRORS.has(err.name) || (typeof code === 'string' && UNAVAILABLE_SQLITE.test(code));
}

const DOMAIN_STATUS: Record<DomainErrorCode, number> = { invalid: 400, not_found: 404, conflict: 409, forbidden: 403, limit_exceeded: 429 };

export function toProblem(err: unknown): { problem: Problem; headers: Record<string, string> } {
  const make = (status: number, detail: string, slug?: string, title?: string): Problem => {
    const [defSlug, defTitle] = TITLES[status] ?? ['error', 'Error'];
    return { type: problemType(slug ?? defSlug), title: title ?? defTitle, status, detail };
  };
  if (err instanceof ProblemException) {
    const p = make(err.getStatus(), err.message, err.extras.slug, err.extras.title);
    if (err.extras.errors) p.errors = err.extras.errors;
    Object.assign(p, err.extras.extensions ?? {});
    return { problem: p, headers: err.extras.headers ?? {} };
  }
  if (err instanceof DomainError) {
    const status = DOMAIN_STATUS[err.code];
    const { broken } = err;
    const p = make(status, err.message, broken?.rule, broken?.title);
    const field = err.details.field;
    if (typeof field === 'string') p.errors = [{ field, message: err.message }];
    Object.assign(p, broken?.facts ?? {});
    return { problem: p, headers: broken?.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(broken.retryAfterSeconds) } };
  }
  if (err instanceof WrongExpectedRevisionError) {
    return { problem: make(409, 'The resource was changed by another request at the same time; retry.'), headers: {} };
  }
  if (err instanceof ThrottlerException) {
    return { problem: make(429, 'Rate limit exceeded; retry after the time in Retry-After.'), headers: {} };
  }
  if (err instanceof HttpException) {
    // Nest hands fastify's refusals on as bare HttpExceptions with fastify's message
    const framework = frameworkCodeOf(err.message, err.getStatus());
    if (framework) return { problem: make(...FRAMEWORK_DETAILS[framework]), headers: {} };
    const status = err.getStatus();
    const detail = status === 404 ? 'No such resource.' : status >= 500 ? 'The service could not complete the request.' : err.message;
    return { problem: make(status, detail), headers: {} };
  }
  // Fastify's own errors (body parsing, size, media type, router) carry a statusCode and a code.
  const fst = err as { statusCode?: number; code?: string; message?: string };
  if (typeof fst?.statusCode === 'number' && fst.statusCode >= 400 && fst.statusCode < 500) {
    const known = fst.code ? FRAMEWORK_DETAILS[fst.code] : undefined;
    const [status, detail] = known ?? [fst.statusCode, fst.code?.startsWith('FST_ERR_CTP') ? 'The body could not be read.' : 'Bad request.'];
    return { problem: make(status, detail), headers: {} };
  }
  if (isUnavailable(err)) {
    return { problem: make(503, 'A store the service depends on is unreachable or busy; retry after the time in Retry-After.'), headers: { 'Retry-After': '5' } };
  }
  return { problem: make(HttpStatus.INTERNAL_SERVER_ERROR, 'The service could not complete the request.'), headers: {} };
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, err: unknown, log: Logger): void {
  const { problem, headers } = toProblem(err);
  if (problem.status >= 500) log[problem.status === 503 ? 'warn' : 'error']({ err, url: request.url, method: request.method }, 'request failed');
  // the path, not the query; an address too long to be useful back (414) is left out
  const path = request.url.split('?')[0];
  if (path.length <= 512) problem.instance = path;
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  if (problem.status === 401 && !reply.hasHeader('www-authenticate')) reply.header('WWW-Authenticate', 'Bearer realm="gauntlet"');
  reply.status(problem.status).header('content-type', 'application/problem+json; charset=utf-8').send(JSON.stringify(problem));
}

/**
 * Errors Node's HTTP parser raises before there is a request (headers too large, a malformed
 * request line, a client too slow to send its headers): answered on the raw socket, still as
 * problem+json, then the connection is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'The request headers exceed the size limit.']
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'The request was not received in time.']
    : [400, 'The request is not valid HTTP.'];
  const [slug, title] = TITLES[status] ?? ['request-timeout', 'Request timeout'];
  const body = JSON.stringify({ type: problemType(slug), title, status, detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly log: Logger) {}
  catch(exception: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    sendProblem(http.getResponse<FastifyReply>(), http.getRequest<FastifyRequest>(), exception, this.log);
  }
}
