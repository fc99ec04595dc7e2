import { MAX_HIT_BYTES, OutOfBandHit } from '@gauntlet/domain';
import type { CallbackHook } from '@gauntlet/outbound';
import { CallbackClaim, mintToken, tokenInHost, verifyToken } from './token';
import { poisonedPage } from './poisoned-page';

/** The port the listener records through: the hit lands on its scan's stream. */
export interface HitRecorder {
  record(hit: OutOfBandHit): Promise<void>;
}

/**
 * One request to `<mount>/<token>[/more][?query]`, or to any path of a host `<token labels>.<CALLBACK_DOMAIN>`,
 * as a server read it (the body already bounded).
 */
export interface CallbackRequest {
  method: string;
  /**
   * the path and query after the mount point (`/oob`), e.g. `/<token>/img.png?q=1`; the whole path
   * and query when `host` is under the callback domain (see CallbackListener.hearsHost)
   */
  url: string;
  /** the request's Host, when it is under the callback domain: the token is in the name */
  host?: string;
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
  /** CALLBACK_DOMAIN: names under it carry tokens (a lookup, or a request whose Host is one) */
  domain?: string | null;
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
/** paths clients ask any host for on their own (a browser's icon, a crawler's rules): no data a request carried */
const CLIENT_PATHS = /^\/(?:favicon\.ico|robots\.txt|apple-touch-icon[\w.-]*\.png|\.well-known\/.*)$/i;

/** A lookup of a name, as the DNS listener read it from a query. */
export interface CallbackLookup {
  /** the name asked for, as it came (any case, no trailing dot) */
  name: string;
  /** the record type asked for (A, AAAA, MX, TXT, or TYPE<n>) */
  type: string;
  source: string;
}

/**
 * What the listener makes of a lookup: `refused`, a name outside the callback domain (the listener
 * answers for nothing else and never recurses); `ours`, a name under it, `planted` when it carries
 * a token this key signed (recorded as a hit); null: the source is over its limit (no answer).
 */
export type LookupVerdict = { kind: 'refused' } | { kind: 'ours'; planted: boolean } | null;

/** counters kept at most: past this, the expired are swept, and if none are, the oldest go */
const MAX_COUNTERS = 20_000;

/**
 * Text cut to at most `max` bytes as the event stores it (UTF-8 inside a JSON string, where a
 * control character is six bytes, `\u0000`), never inside a character; and the bytes it takes.
 */
function cut(text: string, max: number): { kept: string; bytes: number } {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = storedSize(c, pair);
    if (bytes + size > max) return { kept: text.slice(0, i), bytes };
    bytes += size;
    if (pair) i++;
  }
  return { kept: text, bytes };
}

/** bytes one UTF-16 unit (or surrogate pair) takes in a JSON string as JSON.stringify writes it, in UTF-8 */
function storedSize(c: number, pair: boolean): number {
  if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) return 2;
  if (c < 0x20) return 6;
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (pair) return 4;
  // a lone surrogate is written escaped
  return c >= 0xd800 && c <= 0xdfff ? 6 : 3;
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

  /** whether a request to this Host (port and case aside) is the listener's: a name under the callback domain */
  hearsHost(host: string | undefined): boolean {
    const domain = this.options.domain?.toLowerCase();
    return Boolean(domain && host && hostName(host).endsWith(`.${domain}`));
  }

  async answer(request: CallbackRequest): Promise<CallbackAnswer> {
    const method = request.method.toUpperCase();
    const [rawPath, ...rest] = request.url.split('?');
    if (!METHODS.has(method)) return NOT_FOUND;
    let planted: { token: string; claim: NonNullable<ReturnType<typeof verifyToken>>; path: string; host?: string } | null = null;
    if (request.host !== undefined) {
      // the token is in the name; the whole path is what the request asked for
      const host = hostName(request.host);
      const inHost = this.hearsHost(host) ? tokenInHost(this.options.key, host, this.options.domain!) : null;
      if (inHost && rawPath.startsWith('/')) planted = { token: inHost.token, claim: inHost.claim, path: rawPath, host };
    } else {
      const match = /^\/([A-Za-z0-9_-]{24,200})(\/.*)?$/.exec(rawPath);
      const claim = match && verifyToken(this.options.key, match[1], 'url');
      if (match && claim) planted = { token: match[1], claim, path: match[2] ?? '' };
    }
    if (!planted) return NOT_FOUND;
    const { token, claim } = planted;
    const now = this.options.now();
    const wait = this.spend(request.source, this.addressOf(claim), now);
    if (wait) return { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': String(wait), ...NO_STORE }, body: 'Too many requests\n' };
    const hit = boundedHit(
      { scan_id: claim.scanId, attempt_id: claim.attemptId, token, address: this.addressOf(claim), method, path: planted.path, ...(planted.host && { host: planted.host }), query: rest.join('?'), source: request.source, at: now.toISOString() },
      request,
    );
    await this.record(hit);
    const answer = this.page(claim.stage, claim.scanId, claim.attemptId);
    return method === 'HEAD' ? { ...answer, body: '' } : answer;
  }

  /**
   * A lookup of a name (the DNS listener's question): one under the callback domain that carries a
   * token this key signed is recorded as a hit (method DNS, the name and type), in the same
   * bounds and limits as a request; any other name under the domain is the listener's but proves
   * nothing; a name outside it is refused.
   */
  async lookup(query: CallbackLookup): Promise<LookupVerdict> {
    const name = hostName(query.name);
    const domain = this.options.domain?.toLowerCase();
    if (!domain || (name !== domain && !name.endsWith(`.${domain}`))) return { kind: 'refused' };
    const now = this.options.now();
    const inHost = name === domain ? null : tokenInHost(this.options.key, name, domain);
    if (!inHost) return this.perSource.spend(`s:${query.source}`, now.getTime()) ? null : { kind: 'ours', planted: false };
    const { claim, token } = inHost;
    if (this.spend(query.source, this.addressOf(claim), now)) return null;
    await this.record(
      boundedHit({ scan_id: claim.scanId, attempt_id: claim.attemptId, token, address: this.addressOf(claim), method: 'DNS', path: '', host: name, record_type: query.type.slice(0, 16), query: '', source: query.source, at: now.toISOString() }, { headers: {}, body: null }),
    );
    return { kind: 'ours', planted: true };
  }

  /** spends one of the source's and one of the planted address's: the seconds to wait when either is spent, else 0 */
  private spend(source: string, address: string, now: Date): number {
    return Math.max(this.perSource.spend(`s:${source}`, now.getTime()), this.perToken.spend(`t:${address}`, now.getTime()));
  }

  /** the planted address in one spelling (a path's), whichever spelling a request or lookup came by: what its bounds count */
  private addressOf(claim: CallbackClaim): string {
    return mintToken(this.options.key, claim);
  }

  private async record(hit: OutOfBandHit): Promise<void> {
    try {
      await this.options.recorder.record(hit);
    } catch (err) {
      this.options.onError?.(err);
    }
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

/** a Host header's name: lower case, no port, no trailing dot */
function hostName(host: string): string {
  const name = host.trim().toLowerCase();
  const bare = name.startsWith('[') ? name : name.replace(/:\d*$/, '');
  return bare.replace(/\.$/, '');
}

/** whether a path after a host that carried the token is one clients ask any host for (so no data a request carried) */
export const clientPath = (path: string): boolean => CLIENT_PATHS.test(path);

/** The hit as kept: path, query, a few headers and the body's start, MAX_HIT_BYTES together at most, as stored. */
function boundedHit({ query: rawQuery, ...base }: Omit<OutOfBandHit, 'query' | 'headers' | 'body'> & { query: string }, request: Pick<CallbackRequest, 'headers' | 'body'>): OutOfBandHit {
  let budget = MAX_HIT_BYTES;
  const take = (text: string, max: number) => {
    const { kept, bytes } = cut(text, Math.min(max, budget));
    budget -= bytes;
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

/** the source of a hit the chat page in Gauntlet's own browser made (heard at its proxy, never from outside) */
export const PAGE_SOURCE = 'browser (Gauntlet\'s proxy)';

/**
 * The listener as Gauntlet's guarded proxy meets it (browser mode): a chat page's request under the
 * callback base, e.g. an attacker's image it rendered, is answered and recorded here without
 * connecting out. The source is the page in Gauntlet's own browser.
 */
export function proxyCallbackHook(listener: Pick<CallbackListener, 'answer'>, baseUrl: string): CallbackHook {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    base,
    answer: ({ method, url, headers }) => listener.answer({ method, url: url.slice(base.length), source: PAGE_SOURCE, headers, body: null }),
  };
}
