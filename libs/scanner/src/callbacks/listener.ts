import { MAX_HIT_BYTES, OutOfBandHit } from '@gauntlet/domain';
import type { CallbackHook } from '@gauntlet/outbound';
import { mintToken, verifyToken } from './token';
import { poisonedPage } from './poisoned-page';

/** The port the listener records through: the hit lands on its scan's stream. */
export interface HitRecorder {
  record(hit: OutOfBandHit): Promise<void>;
}

/** One request to `<mount>/<token>[/more][?query]`, as a server read it (the body already bounded). */
export interface CallbackRequest {
  method: string;
  /** the path and query after the mount point (`/oob`), e.g. `/<token>/img.png?q=1` */
  url: string;
  /** the address the request came from */
  source: string;
  headers: Record<string, string | string[] | undefined>;
  /** the start of the body (at most MAX_HIT_BYTES), null without one */
  body: Buffer | null;
}

export interface CallbackAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface CallbackLimits {
  /** requests answered per token per window */
  perToken: number;
  /** requests answered per source address per window (all tokens together) */
  perSource: number;
  windowMs: number;
}

export const DEFAULT_CALLBACK_LIMITS: CallbackLimits = { perToken: 30, perSource: 300, windowMs: 60_000 };

export interface CallbackListenerOptions {
  /** callbackKey(SECRETS_KEY) */
  key: Buffer;
  /** the public address the tokens are planted under (CALLBACK_BASE_URL), for the poisoned page's second address */
  baseUrl: string;
  recorder: HitRecorder;
  now: () => Date;
  limits?: Partial<CallbackLimits>;
  /** a hit that could not be recorded (the store is down): told, never answered as an error */
  onError?: (err: unknown) => void;
}

const METHODS = new Set(['GET', 'POST', 'HEAD']);
/** what a planted `render` address answers: a transparent 1x1 GIF, so an image renders as nothing */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const NO_STORE = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'no-referrer' };
const NOT_FOUND: CallbackAnswer = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', ...NO_STORE }, body: 'Not found\n' };
/** headers a hit keeps: who asked, never credentials or cookies */
const KEPT_HEADERS = ['user-agent', 'referer', 'content-type', 'x-forwarded-for'];
const MAX_PATH = 1024;
const MAX_QUERY = 2048;
const MAX_HEADER = 256;
/** counters kept at most: past this, the expired are swept, and if none are, the oldest go */
const MAX_COUNTERS = 20_000;

/** UTF-8 text cut to at most `max` bytes (never in the middle of a character) */
function cut(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  return Buffer.from(text).subarray(0, Math.max(0, max)).toString('utf8').replace(/\uFFFD+$/, '');
}

/** Fixed-window counters by key, bounded in number. */
class Window {
  private readonly counts = new Map<string, { n: number; until: number }>();
  constructor(private readonly max: number, private readonly windowMs: number) {}

  /** spends one; the seconds to wait when the window is spent, else 0 */
  spend(key: string, now: number): number {
    let c = this.counts.get(key);
    if (!c || c.until <= now) {
      if (this.counts.size >= MAX_COUNTERS) this.sweep(now);
      c = { n: 0, until: now + this.windowMs };
      this.counts.set(key, c);
    }
    c.n++;
    return c.n > this.max ? Math.max(1, Math.ceil((c.until - now) / 1000)) : 0;
  }

  private sweep(now: number): void {
    for (const [k, c] of this.counts) if (c.until <= now) this.counts.delete(k);
    for (const k of this.counts.keys()) {
      if (this.counts.size < MAX_COUNTERS) break;
      this.counts.delete(k);
    }
  }
}

/**
 * The callback listener, whatever server it sits behind (the service's route, the CLI's loopback
 * server): a request to a token this key minted is recorded as an OutOfBandHit on its scan
 * (bounded to MAX_HIT_BYTES, rate-limited per token and per source) and answered with a small
 * body, or the poisoned page for a planted `fetch` address; anything else answers 404 and proves
 * nothing. It needs no credentials and never serves back anything a request sent.
 */
export class CallbackListener {
  private readonly limits: CallbackLimits;
  private readonly perToken: Window;
  private readonly perSource: Window;

  constructor(private readonly options: CallbackListenerOptions) {
    this.limits = { ...DEFAULT_CALLBACK_LIMITS, ...options.limits };
    this.perToken = new Window(this.limits.perToken, this.limits.windowMs);
    this.perSource = new Window(this.limits.perSource, this.limits.windowMs);
  }

  async answer(request: CallbackRequest): Promise<CallbackAnswer> {
    const method = request.method.toUpperCase();
    const [rawPath, ...rest] = request.url.split('?');
    const match = /^\/([A-Za-z0-9_-]{24,200})(\/.*)?$/.exec(rawPath);
    if (!METHODS.has(method) || !match) return NOT_FOUND;
    const token = match[1];
    const claim = verifyToken(this.options.key, token);
    if (!claim) return NOT_FOUND;
    const now = this.options.now();
    const wait = Math.max(this.perSource.spend(`s:${request.source}`, now.getTime()), this.perToken.spend(`t:${token}`, now.getTime()));
    if (wait) return { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(wait), ...NO_STORE }, body: 'Too many requests\n' };
    const hit = boundedHit({ scan_id: claim.scanId, attempt_id: claim.attemptId, token, method, path: match[2] ?? '', query: rest.join('?'), source: request.source, at: now.toISOString() }, request);
    try {
      await this.options.recorder.record(hit);
    } catch (err) {
      this.options.onError?.(err);
    }
    const answer = this.page(claim.stage, claim.scanId, claim.attemptId);
    return method === 'HEAD' ? { ...answer, body: '' } : answer;
  }

  private page(stage: string, scanId: string, attemptId: string): CallbackAnswer {
    if (stage === 'fetch') {
      const second = `${this.options.baseUrl.replace(/\/+$/, '')}/${mintToken(this.options.key, { scanId, attemptId, stage: 'steered' })}`;
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', ...NO_STORE }, body: poisonedPage(second) };
    }
    if (stage === 'render') return { status: 200, headers: { 'content-type': 'image/gif', ...NO_STORE }, body: PIXEL };
    return { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', ...NO_STORE }, body: 'OK\n' };
  }
}

/** The hit as kept: path, query, a few headers and the body's start, MAX_HIT_BYTES together at most. */
function boundedHit({ query: rawQuery, ...base }: Omit<OutOfBandHit, 'query' | 'headers' | 'body'> & { query: string }, request: CallbackRequest): OutOfBandHit {
  let budget = MAX_HIT_BYTES;
  const take = (text: string, max: number) => {
    const kept = cut(text, Math.min(max, budget));
    budget -= Buffer.byteLength(kept);
    return kept;
  };
  const path = take(base.path, MAX_PATH);
  const query = take(rawQuery, MAX_QUERY);
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (!text || budget <= name.length) continue;
    budget -= name.length;
    headers[name] = take(text, MAX_HEADER);
  }
  const body = request.body?.length ? take(request.body.toString('utf8'), budget) : '';
  return { ...base, path, ...(query && { query }), ...(Object.keys(headers).length && { headers }), ...(body && { body }) };
}

/**
 * The listener as Gauntlet's guarded proxy meets it (browser mode): a chat page's request under the
 * callback base, e.g. an attacker's image it rendered, is answered and recorded here without
 * connecting out. The source is the page in Gauntlet's own browser.
 */
export function proxyCallbackHook(listener: Pick<CallbackListener, 'answer'>, baseUrl: string): CallbackHook {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    base,
    answer: ({ method, url, headers }) => listener.answer({ method, url: url.slice(base.length), source: 'browser (Gauntlet\'s proxy)', headers, body: null }),
  };
}
