import { TargetAnswer, withCustomHeaders } from '@gauntlet/domain';
import { checkOutboundUrl, guardedDispatcher, isOutboundRefusal } from '@gauntlet/outbound';
import { Dispatcher, request } from 'undici';
import { answerDeadline } from '../../answer-deadline';
import { TargetFailure, TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { AnswerMeter } from './answer-meter';
import { BudgetReached, Outgoing, SpendMeter } from '../../budget/meter';
import { estimateTokens } from '@gauntlet/domain';
import { RequestPacer, sleep } from './request-pacer';
import { DEFAULT_RETRY_POLICY, retryAfterOf, retryDelay, RetryPolicy } from './retry-policy';

/** What every API driver is given besides the target itself. */
export interface ApiDriverOptions {
  /** OUTBOUND_ALLOW_PRIVATE: may the target live on loopback or a private network */
  allowPrivate: boolean;
  /** per request, answer body included (default 60 s; longer for a slow target with requests queued at it: answer-deadline.ts) */
  timeoutMs?: number;
  /** `max_requests_per_second` of the target: a ceiling; null or absent: found by pacing */
  maxRequestsPerSecond?: number | null;
  /** conversations in flight at first, and at most (the profile's, and its ceiling) */
  concurrency?: { initial: number; max: number };
  retry?: Partial<RetryPolicy>;
  /** custom request headers for gateways (opened from their seal by the caller); never in a message */
  headers?: Record<string, string> | null;
  /** an answer body larger than this is refused (default 4 MiB) */
  maxAnswerBytes?: number;
  /** counts every request before it goes out (retries included) and every answer as it is read; refuses what would cross the scan's budget */
  meter?: SpendMeter;
}

export interface TargetRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** values (the API key) that must never appear in an error message */
  secrets: Array<string | null | undefined>;
  /** the tokens it says (the conversation's words and the tools offered, estimated): what the meter counts it at */
  tokens: number;
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
  /** requests to the target under way now: what an answer's time is judged against */
  private inFlight = 0;

  constructor(private readonly options: ApiDriverOptions) {
    this.dispatcher = guardedDispatcher({ allowPrivate: options.allowPrivate });
    const ceilingRate = options.maxRequestsPerSecond && options.maxRequestsPerSecond > 0 ? options.maxRequestsPerSecond : null;
    this.pacer = new RequestPacer({ ceilingRate, initialConcurrency: options.concurrency?.initial ?? 4, maxConcurrency: options.concurrency?.max ?? 4 });
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxAnswerBytes = options.maxAnswerBytes ?? 4 * 1024 * 1024;
  }

  assertOpen(): void {
    if (this.closed) throw new Error('this chat driver is closed');
  }

  /** conversations worth having in flight now, by what the target has answered so far */
  concurrency(): number {
    return this.pacer.concurrency();
  }

  /** requests a second the target takes at the pace kept now (null before its first answer) */
  throughput(): number | null {
    return this.pacer.throughput();
  }

  /** how long answers have taken lately (smoothed), null before the first */
  answerTime(): number | null {
    return this.pacer.latency;
  }

  get pacing() {
    return this.pacer.state;
  }

  async post<T>(req: TargetRequest, read: (answer: TargetAnswer) => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.assertOpen();
    const where = describe(req.url);
    const check = checkOutboundUrl(req.url, { allowPrivate: this.options.allowPrivate });
    if (!check.ok) throw new TargetUnavailableError(`${where} ${check.reason}`, undefined, { kind: 'refused', detail: check.reason });
    const custom = this.options.headers ?? {};
    const secrets = [...req.secrets, ...Object.values(custom)];
    const redact = (text: string) => redactSecrets(text, secrets);

    for (let attempt = 1, throttled = 0; ; ) {
      const sentAt = await this.pacer.take(signal);
      // counted before it leaves: one that would cross the scan's budget is never sent
      const outgoing = this.options.meter?.send(req.tokens, attempt > 1 || throttled > 0);
      const inFlight = ++this.inFlight;
      // a slow model, or one queueing the scan's requests, is given time by what it has shown
      const timeoutMs = answerDeadline(this.timeoutMs, this.pacer.latency, inFlight);
      const timeout = AbortSignal.timeout(timeoutMs);
      const attemptSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let failure: { reason: string; retryAfterMs: number | null; cause?: unknown; failure: TargetFailure };
      try {
        const res = await request(check.url, {
          method: 'POST',
          // a gateway's own headers replace the format's of the same name in any case (an Authorization of its own, say)
          headers: withCustomHeaders({ 'content-type': 'application/json', ...req.headers }, custom),
          body: req.body,
          dispatcher: this.dispatcher,
          signal: attemptSignal,
        });
        const contentType = String(res.headers['content-type'] ?? '').toLowerCase();
        if (res.statusCode >= 200 && res.statusCode < 300) {
          try {
            const meter = new AnswerMeter();
            const answer = await read({ headers: res.headers, contentType, chunks: meter.through(this.bounded(res.body, outgoing)) });
            this.pacer.record({ kind: 'answered', sentAt, latencyMs: Date.now() - sentAt, units: meter.units(answer), inFlight });
            outgoing?.received(answerTokens(answer));
            return answer;
          } catch (err) {
            // the status it came with belongs to what the check reports
            if (err instanceof TargetProtocolError && err.failure?.kind === 'unreadable') throw new TargetProtocolError(err.message, { ...err.failure, status: res.statusCode });
            throw err;
          } finally {
            res.body.destroy();
          }
        }
        outgoing?.failed();
        const excerpt = redact(await bodyExcerpt(res.body));
        const http: TargetFailure = { kind: 'http', status: res.statusCode, contentType };
        const retryAfterMs = retryAfterOf(res.headers, Date.now());
        if (res.statusCode === 429 || (res.statusCode === 503 && retryAfterMs !== null)) {
          // the target says when to come back: everyone waits, and the pace drops to what it admits
          this.pacer.record({ kind: 'throttled', sentAt, retryAfterMs });
          if (++throttled < this.retry.maxThrottledAttempts) {
            await sleep(Math.min(this.retry.maxRetryAfterMs, retryAfterMs ?? retryDelay(throttled, this.retry, null)), signal);
            continue;
          }
          failure = { reason: `HTTP ${res.statusCode}${excerpt} (refused ${throttled} times)`, retryAfterMs, failure: http };
        } else if (res.statusCode >= 500) {
          this.pacer.record({ kind: 'failed' });
          failure = { reason: `HTTP ${res.statusCode}${excerpt}`, retryAfterMs, failure: http };
        } else {
          // a credential problem body may quote part of the key: say only the status
          const detail = res.statusCode === 401 || res.statusCode === 403 ? ' (check api_key)' : excerpt;
          throw new TargetProtocolError(`${where} answered HTTP ${res.statusCode}${detail}`, http);
        }
      } catch (err) {
        // an answer that would have crossed the budget was cut: the scan stops there, nothing is retried
        if (err instanceof BudgetReached) {
          outgoing?.cut();
          throw err;
        }
        outgoing?.failed();
        if (err instanceof TargetProtocolError) throw new TargetProtocolError(redact(err.message), err.failure);
        if (signal?.aborted) throw signal.reason;
        if (isOutboundRefusal(err)) {
          const detail = err instanceof Error ? refusalOf(err) : 'refused';
          throw new TargetUnavailableError(`${where}: ${detail}`, err, { kind: 'refused', detail });
        }
        this.pacer.record({ kind: 'failed' });
        const code = networkCode(err);
        failure = timeout.aborted
          ? { reason: `no answer within ${timeoutMs} ms`, retryAfterMs: null, cause: err, failure: { kind: 'timeout', ms: timeoutMs } }
          : err instanceof TargetUnavailableError
            ? { reason: redact(err.message), retryAfterMs: null, cause: err, failure: err.failure ?? { kind: 'network', code } }
            : { reason: `network error (${code})`, retryAfterMs: null, cause: err, failure: TLS_CODE.test(code) ? { kind: 'tls', code } : { kind: 'network', code } };
      } finally {
        this.inFlight--;
      }
      if (attempt >= this.retry.attempts || throttled >= this.retry.maxThrottledAttempts) {
        throw new TargetUnavailableError(`${where} did not answer after ${attempt + throttled} attempt(s): ${failure.reason}`, failure.cause, failure.failure);
      }
      await sleep(retryDelay(attempt, this.retry, failure.retryAfterMs), signal);
      attempt++;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.dispatcher.destroy();
  }

  private async *bounded(body: AsyncIterable<Buffer>, outgoing?: Outgoing): AsyncIterable<Buffer> {
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > this.maxAnswerBytes) throw new TargetProtocolError(`the answer is larger than ${this.maxAnswerBytes} bytes`);
      outgoing?.reading(size);
      yield chunk;
    }
  }
}

/** the tokens of an answer as read: its text, and an agent's calls (their names and arguments) */
function answerTokens(answer: unknown): number {
  if (typeof answer === 'string') return estimateTokens(answer);
  const { text, calls } = (answer ?? {}) as { text?: unknown; calls?: unknown };
  return (typeof text === 'string' ? estimateTokens(text) : 0) + (Array.isArray(calls) && calls.length ? estimateTokens(JSON.stringify(calls)) : 0);
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

/** Node's and OpenSSL's names for a certificate or handshake that failed */
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME|EPROTO/;

function networkCode(err: unknown): string {
  for (let e: any = err; e; e = e.cause) if (typeof e.code === 'string') return e.code;
  return err instanceof Error ? err.name : 'unknown';
}
