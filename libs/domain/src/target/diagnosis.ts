import { apiFormat, ApiFormat, isApiFormat, keyPlacementText } from './formats';
import type { ScanMode } from './target';
import type { PageStep, TargetFailure } from './target-errors';


/** One attempt at a harmless message, as the check saw it. */
export type CheckOutcome =
  /** chat pages: `attribution` says whether the answer was told from our own message (PageObservation) */
  | { kind: 'answered'; answer: string; attribution?: 'bot_message' | 'uncertain'; attribution_reason?: string }
  | { kind: 'failed'; failure: TargetFailure | null; message: string };

export interface CheckSubject {
  scan_mode: ScanMode;
  api_format: ApiFormat | null;
  url: string;
  endpoint: string;
  has_api_key: boolean;
}

export interface Diagnosis {
  ok: boolean;
  /** one sentence: what happened */
  diagnosis: string;
  /** what to change, or null */
  hint: string | null;
}

/** how a diagnosis names a format: its label (formats/) */
const label = (format: ApiFormat) => apiFormat(format).label;

/**
 * Says in one sentence what a check found and, when something should change, what. `alternative`
 * is an endpoint that answered after the configured one was not found (the check tries a few).
 */
export function diagnose(subject: CheckSubject, outcome: CheckOutcome, latencyMs: number, alternative: string | null = null): Diagnosis {
  const what = subject.scan_mode === 'browser' ? 'The chat page' : 'The target';
  if (outcome.kind === 'answered') {
    if (!outcome.answer.trim()) {
      return {
        ok: false,
        diagnosis: `${what} answered, but with an empty message.`,
        hint: (subject.api_format && apiFormat(subject.api_format).hints?.emptyAnswer) || 'Check model: a model that is loading or unknown to the server may answer nothing.',
      };
    }
    const how = subject.scan_mode === 'browser' ? 'found the chat input, sent a message and read the answer' : `answered as ${label(subject.api_format!)}`;
    if (subject.scan_mode === 'browser' && outcome.attribution === 'uncertain') {
      return {
        ok: true,
        diagnosis: `${what} ${how} in ${latencyMs} ms, but Gauntlet could not tell the bot's message from its own (${outcome.attribution_reason ?? 'no message list found'}): what it read may hold the message it sent, so markup found there is rated medium at most and effects in the page prove nothing.`,
        hint: 'Set browser.response_selector to the CSS selector of the bot\'s messages so the answer is read from them alone.',
      };
    }
    const whose = subject.scan_mode === 'browser' && outcome.attribution === 'bot_message' ? ' from the bot\'s own message' : '';
    return { ok: true, diagnosis: `${what} ${how}${whose} in ${latencyMs} ms.`, hint: null };
  }
  const f = outcome.failure;
  if (!f) return { ok: false, diagnosis: `The check could not complete: ${outcome.message}`, hint: null };
  const format = subject.api_format;
  switch (f.kind) {
    case 'refused': {
      const metadata = /metadata/i.test(f.detail);
      const ours = /own listeners/i.test(f.detail);
      return {
        ok: false,
        diagnosis: `Gauntlet's outbound policy refused the connection: ${f.detail.replace(/\.$/, '')}.`,
        hint: ours
          ? 'That address is Gauntlet itself (its api, dashboard or metrics), which no target may be, whatever OUTBOUND_ALLOW_PRIVATE says; point url at the chatbot.'
          : metadata
          ? 'Cloud metadata addresses are always refused; use the address of the service itself.'
          : 'The target is on a loopback, private or link-local address. To scan a target on your own machine or network, start Gauntlet with OUTBOUND_ALLOW_PRIVATE=true.',
      };
    }
    case 'http':
      return httpDiagnosis(subject, f.status, alternative);
    case 'timeout':
      return {
        ok: false,
        diagnosis: `${what} did not answer within ${Math.round(f.ms / 1000)} s.`,
        hint: 'Check that it is up and reachable from the Gauntlet server; a large model on a busy server may need longer than the check waits.',
      };
    case 'network':
      return networkDiagnosis(subject, f.code);
    case 'tls':
      return /WRONG_VERSION|EPROTO|PACKET_LENGTH/i.test(f.code)
        ? { ok: false, diagnosis: `The TLS handshake failed (${f.code}): the server does not seem to speak HTTPS on that port.`, hint: 'Try the same address with http:// instead of https://.' }
        : { ok: false, diagnosis: `The server's TLS certificate was not accepted (${f.code}).`, hint: 'The certificate is self-signed, expired or for another name: give the target a certificate a public CA signed, or use the name it was issued for.' };
    case 'unreadable':
      if (f.looksLike === 'html') {
        return subject.scan_mode === 'browser'
          ? { ok: false, diagnosis: 'The page loaded, but not in a way Gauntlet could read.', hint: null }
          : {
              ok: false,
              diagnosis: `${what} answered with a web page (HTML), not ${format ? label(format) : 'an API'} JSON.`,
              hint: `If this address is a chat page, register it with scan_mode browser. If it is an API, the path is probably wrong: url should be ${format ? apiFormat(format).urlShape : 'the API endpoint'}.`,
            };
      }
      if (f.looksLike && f.looksLike !== format && isApiFormat(f.looksLike)) {
        return {
          ok: false,
          diagnosis: `${what} answered in the ${label(f.looksLike)} format, not ${format ? label(format) : 'the one configured'}.`,
          hint: `Set api_format to ${f.looksLike}.`,
        };
      }
      return {
        ok: false,
        diagnosis: `${what} answered, but not in a form the ${format ? label(format) : ''} driver reads (content-type ${f.contentType || 'none'}).`,
        hint: (format && apiFormat(format).hints?.unreadable) || 'Check api_format: the answer looks like another API, or like a gateway error page.',
      };
    case 'streamed-error':
      return { ok: false, diagnosis: `${what} answered with an error: ${f.detail.slice(0, 200)}`, hint: 'Check model and the account behind api_key; the message above is the target\'s own.' };
    case 'page':
      return pageDiagnosis(f.step, outcome.message, f.install);
    case 'settings':
      return { ok: false, diagnosis: `The target's settings do not work: ${outcome.message.replace(/^target \S+ /, '')}.`, hint: `Fix ${f.field}.` };
  }
}

function httpDiagnosis(subject: CheckSubject, status: number, alternative: string | null): Diagnosis {
  const format = subject.api_format;
  const where = `${subject.endpoint.split('?')[0]}`;
  if (status === 401 || status === 403) {
    return {
      ok: false,
      diagnosis: `The target refused the credentials (HTTP ${status}).`,
      hint: !subject.has_api_key
        ? 'No api_key is stored for this target: add the key it expects.'
        : `Check api_key: it is sent as ${format ? keyPlacementText(apiFormat(format).key) : 'configured'}. A gateway in front may want its own key in headers.`,
    };
  }
  if (status === 404 || status === 405) {
    return {
      ok: false,
      diagnosis: `Nothing answers chat requests at ${where} (HTTP ${status}).`,
      hint: alternative
        ? `${alternative.split('?')[0]} answers: set url to it.`
        : format && status === 404 && apiFormat(format).hints?.notFound
          ? apiFormat(format).hints!.notFound!
          : `Check the path: url should be ${format ? apiFormat(format).urlShape : 'the address of the API'}.`,
    };
  }
  if (status === 400 || status === 422) {
    return { ok: false, diagnosis: `The target rejected the request (HTTP ${status}).`, hint: 'Check model (a name this server serves) and api_format.' };
  }
  if (status === 429) {
    return { ok: false, diagnosis: 'The target is rate limiting Gauntlet (HTTP 429).', hint: 'Wait and check again; scans slow down on 429s by themselves, and max_requests_per_second caps them.' };
  }
  if (status >= 500) {
    return { ok: false, diagnosis: `The target failed with HTTP ${status}.`, hint: 'The server is up but erring: try again later, or look at its logs.' };
  }
  if (status >= 300 && status < 400) {
    return { ok: false, diagnosis: `The target redirects elsewhere (HTTP ${status}); Gauntlet does not follow redirects.`, hint: 'Use the address it redirects to (often https:// instead of http://, or a trailing path).' };
  }
  return { ok: false, diagnosis: `The target answered HTTP ${status}.`, hint: null };
}

function networkDiagnosis(subject: CheckSubject, code: string): Diagnosis {
  let host = '';
  try {
    const u = new URL(subject.endpoint);
    host = u.host;
  } catch {
    /* the URL was validated when it was saved */
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return { ok: false, diagnosis: `The host name ${host.replace(/:\d+$/, '')} does not resolve (${code}).`, hint: 'Check the host in url, and that the Gauntlet server can resolve it.' };
  }
  if (code === 'ECONNREFUSED') {
    return { ok: false, diagnosis: `Nothing accepted the connection at ${host} (ECONNREFUSED).`, hint: 'Is the server running and listening on that port, on an interface the Gauntlet server can reach?' };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return { ok: false, diagnosis: `The connection to ${host} was closed before an answer (${code}).`, hint: 'A proxy or firewall may be dropping it; check the scheme (http/https) and port.' };
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { ok: false, diagnosis: `${host} cannot be reached from the Gauntlet server (${code}).`, hint: 'Check the network path (firewall, VPN) between the Gauntlet server and the target.' };
  }
  return { ok: false, diagnosis: `The connection to ${host} failed (${code}).`, hint: null };
}

function pageDiagnosis(step: PageStep, message: string, install?: string): Diagnosis {
  switch (step) {
    case 'launch':
      if (install) return { ok: false, diagnosis: 'No Chromium is installed on the Gauntlet server, so chat pages cannot be opened.', hint: `Run \`${install}\` on the Gauntlet server (or set CHROMIUM_PATH to a Chromium or Chrome).` };
      return { ok: false, diagnosis: 'Chromium did not start on the Gauntlet server.', hint: 'Install Debian\'s chromium (infra/debian-packages.sh) or point CHROMIUM_PATH at a Chromium.' };
    case 'load':
      return { ok: false, diagnosis: `The chat page did not load: ${reason(message, /^(?:the )?chat page did not load\s*:?\s*/i)}`, hint: 'Check the address opens in a browser from the Gauntlet server.' };
    case 'input':
      return { ok: false, diagnosis: 'The page loaded, but no chat input was found on it.', hint: 'Set browser.input_selector (and send_selector, response_selector) to CSS selectors of the chat box; the screenshot shows what the page looked like.' };
    case 'send':
      return { ok: false, diagnosis: 'The chat input was found, but the message could not be sent.', hint: 'Set browser.send_selector to the send button.' };
    case 'settle':
      return { ok: false, diagnosis: `The page did not settle: ${reason(message, /^(?:the )?page did not settle\s*:?\s*/i)}`, hint: 'The page keeps the browser busy (a frame that never loads, a script that never ends, endless dialogs or reloads); check that it opens and stays still in a browser, or point url at the chat itself.' };
    case 'answer':
      return { ok: false, diagnosis: 'The message was sent, but no answer appeared.', hint: 'Set browser.response_selector to the element holding the bot\'s answers; the screenshot shows the page after sending.' };
  }
}

/**
 * The driver's sentence as the end of ours: said once (the driver's message often starts with the
 * same words the diagnosis does) and ending in one full stop.
 */
function reason(message: string, ownPrefix: RegExp): string {
  const rest = withoutTrailingStops(message.split('\n')[0].trim().replace(ownPrefix, ''));
  return `${rest || 'no reason was given'}.`;
}

/**
 * `text` without the full stops and spaces it ends with, as `.replace(/[.\s]+$/, '')` cuts them;
 * that pattern reads a run of them again from each of its characters (`. . . x`: quadratic), a
 * driver's message may quote a page, so the run is walked back once instead.
 */
export function withoutTrailingStops(text: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === '.' || /\s/.test(text[end - 1]))) end--;
  return text.slice(0, end);
}
