import { isOutboundRefusal } from '@gauntlet/outbound';
import { request, type Dispatcher } from 'undici';
import { parseRetryAfter } from './retry-policy';

export interface DeliveryRequest {
  url: string;
  body: Buffer | string;
  contentType: string;
  headers: Record<string, string>;
}

export interface DeliverOptions {
  /** WEBHOOK_TIMEOUT_MS: the whole exchange, connect to response headers (30 s in the contract) */
  timeoutMs: number;
  /** the SSRF-guarded dispatcher (guardedDispatcher from @gauntlet/outbound) */
  dispatcher: Dispatcher;
  userAgent?: string;
}

export interface AttemptResult {
  ok: boolean;
  status?: number;
  error?: string;
  duration_ms: number;
  /** 429 with a readable Retry-After */
  retry_after_ms?: number;
  /** 410 Gone: the receiver asks us to stop; the endpoint should be disabled */
  gone?: boolean;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** we read at most this much of a response, only so the connection can be reused */
const MAX_RESPONSE_BYTES = 64 * 1024;

async function drain(body: Dispatcher.ResponseData['body']): Promise<void> {
  let read = 0;
  try {
    for await (const chunk of body) {
      read += (chunk as Buffer).length;
      if (read > MAX_RESPONSE_BYTES) break;
    }
  } catch {
    // the status decided the attempt; a broken body does not change it
  } finally {
    if (read > MAX_RESPONSE_BYTES) body.destroy();
  }
}

/**
 * One POST. Redirects are not followed (a 3xx is a failure: a receiver that moved must be
 * re-registered, and following would let a redirect reach an address the guard refused);
 * any non-2xx or a timeout is a failure. Never throws.
 */
export async function deliver(req: DeliveryRequest, options: DeliverOptions): Promise<AttemptResult> {
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const res = await request(req.url, {
      method: 'POST',
      body: req.body,
      headers: { ...req.headers, 'content-type': req.contentType, 'user-agent': options.userAgent ?? 'Gauntlet-Webhooks/1' },
      dispatcher: options.dispatcher,
      signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    await drain(res.body);
    const status = res.statusCode;
    if (status >= 200 && status < 300) return { ok: true, status, duration_ms: duration() };
    const result: AttemptResult = { ok: false, status, duration_ms: duration(), error: status >= 300 && status < 400 ? `redirect ${status} not followed` : `HTTP ${status}` };
    if (status === 410) result.gone = true;
    if (status === 429) {
      const after = parseRetryAfter(res.headers['retry-after'] as string | string[] | undefined);
      if (after !== null) result.retry_after_ms = after;
    }
    return result;
  } catch (err) {
    const e = err as Error & { code?: string };
    let error: string;
    if (isOutboundRefusal(err)) error = (err as Error).message;
    else if (signal.aborted || e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT') error = `timed out after ${options.timeoutMs} ms`;
    else error = e.code ? `${e.code}: ${e.message}` : e.message;
    return { ok: false, error, duration_ms: duration() };
  }
}
