import { TargetFailure, TargetProtocolError, TargetUnavailableError } from '../../chat-driver';

/** The part of a logger the driver writes to (pino's shape). */
export interface BrowserLog {
  debug(fields: Record<string, unknown>, message: string): void;
}

/**
 * What went wrong in the browser, in Gauntlet's words: Playwright's and Chromium's own text
 * (`page.goto: Timeout 30000ms exceeded.`, `net::ERR_TUNNEL_CONNECTION_FAILED at ...`, call logs)
 * is for their developers, and never reaches a diagnosis, a scan's reason or a log line a user reads.
 */
export function inGauntletWords(detail: string): string {
  const timeout = detail.match(/Timeout (\d+)\s*ms exceeded/i);
  if (timeout) return `nothing came within ${seconds(Number(timeout[1]))}`;
  const net = detail.match(/net::ERR_([A-Z0-9_]+)/)?.[1];
  if (net) return NETWORK[net] ?? (net.startsWith('CERT_') ? "the site's TLS certificate was not accepted" : net.startsWith('SSL_') ? 'the TLS handshake failed' : `the browser's connection failed (${net.toLowerCase().replace(/_/g, ' ')})`);
  if (/crash/i.test(detail)) return 'the page crashed';
  if (saysClosed(detail)) return 'the browser closed the page before it was done';
  if (/Execution context was destroyed|frame was detached|navigat/i.test(detail)) return 'the page navigated away while it was being read';
  if (/not (?:visible|enabled|editable|attached)|outside of the viewport|intercepts pointer events/i.test(detail)) return 'the chat controls could not be used (hidden, disabled or covered by something else)';
  // a script Gauntlet ran in the page threw: its reader met a page it does not handle (or the page broke what it uses)
  if (/\.evaluate(?:Handle)?: (?:\w*Error|Uncaught)\b/.test(detail)) return "Gauntlet's reader failed on this page (the page's structure, or a script of the page's, broke it)";
  return 'the browser could not complete it';
}

const seconds = (ms: number) => (ms < 1_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

const NETWORK: Record<string, string> = {
  CONNECTION_REFUSED: 'nothing accepted the connection',
  NAME_NOT_RESOLVED: 'the host name does not resolve',
  NAME_RESOLUTION_FAILED: 'the host name does not resolve',
  TUNNEL_CONNECTION_FAILED: "Gauntlet's outbound guard could not connect to the site (refused or unreachable)",
  PROXY_CONNECTION_FAILED: "the browser could not reach Gauntlet's outbound guard",
  CONNECTION_RESET: 'the connection was closed before an answer',
  CONNECTION_CLOSED: 'the connection was closed before an answer',
  EMPTY_RESPONSE: 'the server closed the connection without answering',
  CONNECTION_TIMED_OUT: 'the site cannot be reached (the connection timed out)',
  TIMED_OUT: 'nothing came in time',
  ADDRESS_UNREACHABLE: 'the site cannot be reached from the Gauntlet server',
  INTERNET_DISCONNECTED: 'the Gauntlet server has no network',
  TOO_MANY_REDIRECTS: 'the page redirects in a loop',
  ABORTED: 'the page went elsewhere, or answered with a download, before it loaded',
  INVALID_RESPONSE: 'the server answered something that is not HTTP',
  INVALID_HTTP_RESPONSE: 'the server answered something that is not HTTP',
  INCOMPLETE_CHUNKED_ENCODING: 'the answer was cut off before its end',
  CONTENT_LENGTH_MISMATCH: 'the answer was cut off before its end',
  HTTP2_PROTOCOL_ERROR: 'the server broke the HTTP/2 protocol',
  SSL_PROTOCOL_ERROR: 'the TLS handshake failed: the server does not seem to speak HTTPS on that port',
  BLOCKED_BY_CLIENT: 'the browser refused to load it',
  BLOCKED_BY_RESPONSE: 'the site forbids being opened this way',
  UNSAFE_PORT: 'the browser refuses that port',
};

/**
 * An error of the browser's as Gauntlet says it: its kind read from Playwright's text, the words a
 * user reads ours; Playwright's own text goes to the log at debug, for whoever diagnoses the page.
 */
export function asTargetError(err: unknown, what: string, failure: TargetFailure, log?: BrowserLog): TargetUnavailableError | TargetProtocolError {
  if (err instanceof TargetUnavailableError || err instanceof TargetProtocolError) return err;
  const raw = err instanceof Error ? err.message : String(err);
  const detail = raw.split('\n')[0];
  log?.debug({ browser_error: raw.slice(0, 2_000), what }, 'the browser failed');
  return new TargetUnavailableError(`${what}: ${inGauntletWords(detail)}`, err, browserFailure(detail) ?? failure);
}

/** Chromium's network errors said the way the API drivers say them */
function browserFailure(detail: string): TargetFailure | null {
  const net = detail.match(/net::ERR_([A-Z_]+)/)?.[1];
  if (net === 'CONNECTION_REFUSED') return { kind: 'network', code: 'ECONNREFUSED' };
  if (net === 'NAME_NOT_RESOLVED') return { kind: 'network', code: 'ENOTFOUND' };
  if (net?.startsWith('CERT_') || net?.startsWith('SSL_')) return { kind: 'tls', code: `ERR_${net}` };
  if (net) return { kind: 'network', code: `ERR_${net}` };
  return null;
}

/**
 * "Target page, context or browser has been closed": a line with one of the words and `closed`
 * after it, as `/(?:Target|page|context|browser)[^\n]*(?:has been )?closed/i` finds it. That pattern
 * reads the rest of the line again from each of the words (a page's thrown message repeating
 * `page` costs quadratic time); none of the words holds another, so the leftmost ends first, and
 * `closed` after it is looked for once.
 */
export function saysClosed(detail: string): boolean {
  const word = /Target|page|context|browser/gi;
  for (let m = word.exec(detail); m; m = word.exec(detail)) {
    const lineEnd = detail.indexOf('\n', m.index);
    const line = detail.slice(word.lastIndex, lineEnd < 0 ? detail.length : lineEnd);
    if (/closed/i.test(line)) return true;
    if (lineEnd < 0) return false;
    word.lastIndex = lineEnd + 1;
  }
  return false;
}
