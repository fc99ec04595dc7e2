import { checkOutboundUrl, guardedDispatcher, isOutboundRefusal } from '@gauntlet/outbound';
import { Dispatcher, request } from 'undici';
import { TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { RequestPacer, sleep } from './request-pacer';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay, RetryPolicy } from './retry-policy';

/** What every API driver is given besides the target itself. */
export interface ApiDriverOptions {
  /** OUTBOUND_ALLOW_PRIVATE: may the target live on loopback or a private network */
  allowPrivate: boolean;
  /** per request, answer body included (default 60 s) */
  timeoutMs?: number;
  /** `max_requests_per_second` of the target; null or absent: unpaced */
  maxRequestsPerSecond?: number | null;
  retry?: Partial<RetryPolicy>;
  /** an answer body larger than this is refused (default 4 MiB) */
  maxAnswerBytes?: number;
}

/** A 2xx answer handed to the driver's reader. */
export interface TargetAnswer {
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  /** the body, cut off with a TargetProtocolError past maxAnswerBytes */
  chunks: AsyncIterable<Buffer>;
}

export interface TargetRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** values (the API key) that must never appear in an error message */
  secrets: Array<string | null | undefined>;
}

/**
 * One POST to a target with everything a scan needs around it: the outbound guard at connect
 * time, pacing shared by all conversations, a timeout per attempt, retries with backoff on
 * network errors, 5xx and 429 (honouring Retry-After), and errors the engine can act on.
 */
export class ApiTransport {
  private readonly dispatcher: Dispatcher;
  private readonly pacer: RequestPacer;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly maxAnswerBytes: number;
  private closed = false;

  constructor(private readonly options: ApiDriverOptions) {
    this.dispatcher = guardedDispatcher({ allowPrivate: options.allowPrivate });
    this.pacer = new RequestPacer(options.maxRequestsPerSecond);
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxAnswerBytes = options.maxAnswerBytes ?? 4 * 1024 * 1024;
  }

  assertOpen(): void {
    if (this.closed) throw new Error('this chat driver is closed');
  }

  async post<T>(req: TargetRequest, read: (answer: TargetAnswer) => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.assertOpen();
    const where = describe(req.url);
    const check = checkOutboundUrl(req.url, { allowPrivate: this.options.allowPrivate });
    if (!check.ok) throw new TargetUnavailableError(`${where} ${check.reason}`);
    const redact = (text: string) => redactSecrets(text, req.secrets);

    for (let attempt = 1; ; attempt++) {
      await this.pacer.take(signal);
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const attemptSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let failure: { reason: string; retryAfterMs: number | null; cause?: unknown };
      try {
        const res = await request(check.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...req.headers },
          body: req.body,
          dispatcher: this.dispatcher,
          signal: attemptSignal,
        });
        const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
        if (res.statusCode >= 200 && res.statusCode < 300) {
          try {
            return await read({ headers: res.headers, contentType, chunks: this.bounded(res.body) });
          } finally {
            res.body.destroy();
          }
        }
        const excerpt = redact(await bodyExcerpt(res.body));
        if (res.statusCode === 429 || res.statusCode >= 500) {
          failure = { reason: `HTTP ${res.statusCode}${excerpt}`, retryAfterMs: parseRetryAfter(res.headers['retry-after'], Date.now()) };
        } else {
          // a credential problem body may quote part of the key: say only the status
          const detail = res.statusCode === 401 || res.statusCode === 403 ? ' (check api_key)' : excerpt;
          throw new TargetProtocolError(`${where} answered HTTP ${res.statusCode}${detail}`);
        }
      } catch (err) {
        if (err instanceof TargetProtocolError) throw new TargetProtocolError(redact(err.message));
        if (signal?.aborted) throw signal.reason;
        if (isOutboundRefusal(err)) throw new TargetUnavailableError(`${where}: ${err instanceof Error ? refusalOf(err) : 'refused'}`, err);
        failure = {
          reason: timeout.aborted
            ? `no answer within ${this.timeoutMs} ms`
            : err instanceof TargetUnavailableError
              ? redact(err.message)
              : `network error (${networkCode(err)})`,
          retryAfterMs: null,
          cause: err,
        };
      }
      if (attempt >= this.retry.attempts) {
        throw new TargetUnavailableError(`${where} did not answer after ${attempt} attempt(s): ${failure.reason}`, failure.cause);
      }
      await sleep(retryDelay(attempt, this.retry, failure.retryAfterMs), signal);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.dispatcher.destroy();
  }

  private async *bounded(body: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > this.maxAnswerBytes) throw new TargetProtocolError(`the answer is larger than ${this.maxAnswerBytes} bytes`);
      yield chunk;
    }
  }
}

/** reads a whole answer as text */
export async function answerText(answer: TargetAnswer): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of answer.chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

/** reads a whole answer as JSON, or says the target did not answer JSON */
export async function answerJson(answer: TargetAnswer): Promise<unknown> {
  const text = await answerText(answer);
  try {
    return JSON.parse(text);
  } catch {
    throw new TargetProtocolError(`the answer is not JSON (content-type ${answer.contentType || 'none'})`);
  }
}

export function isEventStream(answer: TargetAnswer): boolean {
  return answer.contentType.startsWith('text/event-stream');
}

/** the endpoint without query string (which may carry a key) for messages */
function describe(url: string): string {
  try {
    const u = new URL(url);
    return `target ${u.origin}${u.pathname}`;
  } catch {
    return 'target';
  }
}

function redactSecrets(text: string, secrets: Array<string | null | undefined>): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

async function bodyExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += chunk.toString('utf8');
      if (text.length > 300) break;
    }
  } catch {
    // the status says enough
  } finally {
    body.destroy();
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text ? `: ${text.slice(0, 200)}` : '';
}

function refusalOf(err: Error): string {
  for (let e: any = err; e; e = e.cause) if (e.code === 'OUTBOUND_REFUSED') return e.message;
  return err.message;
}

function networkCode(err: unknown): string {
  for (let e: any = err; e; e = e.cause) if (typeof e.code === 'string') return e.code;
  return err instanceof Error ? err.name : 'unknown';
}
