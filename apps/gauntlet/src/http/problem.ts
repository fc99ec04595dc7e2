import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '@gauntlet/domain';
import { WrongExpectedRevisionError } from '@gauntlet/eventstore';
import { ThrottlerException } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
  415: ['unsupported-media-type', 'Unsupported media type'],
  422: ['unprocessable', 'Unprocessable'],
  429: ['rate-limited', 'Too many requests'],
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

const DOMAIN_STATUS: Record<DomainErrorCode, number> = { invalid: 400, not_found: 404, conflict: 409, forbidden: 403 };

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
    const p = make(status, err.message);
    const field = err.details.field;
    if (typeof field === 'string') p.errors = [{ field, message: err.message }];
    return { problem: p, headers: {} };
  }
  if (err instanceof WrongExpectedRevisionError) {
    return { problem: make(409, 'The resource was changed by another request at the same time; retry.'), headers: {} };
  }
  if (err instanceof ThrottlerException) {
    return { problem: make(429, 'Rate limit exceeded; retry after the time in Retry-After.'), headers: {} };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const detail = status === 404 ? 'No such resource.' : status >= 500 ? 'The service could not complete the request.' : err.message;
    return { problem: make(status, detail), headers: {} };
  }
  // Fastify's own errors (body parsing, size, media type) carry a statusCode and a code.
  const fst = err as { statusCode?: number; code?: string; message?: string };
  if (typeof fst?.statusCode === 'number' && fst.statusCode >= 400 && fst.statusCode < 500) {
    const detail =
      fst.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'The request body exceeds the size limit.'
      : fst.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'Send the body as application/json.'
      : fst.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The JSON body is empty.'
      : fst.code?.startsWith('FST_ERR_CTP') || /JSON/i.test(fst.message ?? '') ? 'The body is not valid JSON.'
      : (fst.message ?? 'Bad request.');
    return { problem: make(fst.statusCode, detail), headers: {} };
  }
  return { problem: make(HttpStatus.INTERNAL_SERVER_ERROR, 'The service could not complete the request.'), headers: {} };
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, err: unknown, log: Logger): void {
  const { problem, headers } = toProblem(err);
  if (problem.status >= 500) log.error({ err, url: request.url, method: request.method }, 'request failed');
  problem.instance = request.url.split('?')[0];
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  if (problem.status === 401 && !reply.hasHeader('www-authenticate')) reply.header('WWW-Authenticate', 'Bearer realm="gauntlet"');
  reply.status(problem.status).header('content-type', 'application/problem+json; charset=utf-8').send(JSON.stringify(problem));
}

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly log: Logger) {}
  catch(exception: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    sendProblem(http.getResponse<FastifyReply>(), http.getRequest<FastifyRequest>(), exception, this.log);
  }
}
