import { apiEndpoint, apiFormat, CheckOutcome, diagnose, Diagnosis } from '@gauntlet/domain';
import { ChatDriver, Conversation, TargetProtocolError, TargetUnavailableError } from '../chat-driver';
import { within } from '../drivers/browser/deadlines';
import { ChatDriverOptions, ChatTarget, createChatDriver, targetEndpoint } from '../drivers/create-chat-driver';

/** The message a check sends: harmless, and answered by anything that chats. */
export const CHECK_MESSAGE = 'Hello! This is a connection check. Please reply with a short greeting.';

export interface TargetCheck extends Diagnosis {
  endpoint: string;
  /** the target's HTTP status, when it answered one (an API; a chat page that failed to load) */
  status: number | null;
  latency_ms: number;
  /** the start of the answer */
  answer: string | null;
  /** chat pages: PNG of the page as the check left it */
  screenshot: Buffer | null;
}

export interface CheckOptions extends Pick<ChatDriverOptions, 'allowPrivate' | 'chromiumPath'> {
  /** longest wait for the answer (default 20 s for an API, 45 s for a chat page) */
  timeoutMs?: number;
  /**
   * one deadline for the whole check, opening the page and the alternatives tried included: it
   * answers by then whatever the target does, and has closed what it opened (default 40 s for an
   * API, 60 s for a chat page)
   */
  deadlineMs?: number;
  /** chat pages: longest wait for one browser operation (default 5 s) */
  operationTimeoutMs?: number;
  /** chat pages: longest wait for the page to load and show its chat input (default 30 s) */
  navigationTimeoutMs?: number;
  /** the driver to use instead of one made for the target (tests) */
  driverFor?: (target: ChatTarget) => ChatDriver;
}

/**
 * Sends one harmless message the way a scan would and says what happened. No retries: a user
 * waiting on a button wants the first answer, and a 429 is worth reporting as such. After a
 * 404, the few other endpoints the URL might have meant are tried once each, so the hint can
 * name the one that answers.
 */
export async function checkTarget(target: ChatTarget & { has_api_key?: boolean }, options: CheckOptions): Promise<TargetCheck> {
  const browser = target.scan_mode === 'browser';
  const timeoutMs = options.timeoutMs ?? (browser ? 45_000 : 20_000);
  const deadline = Date.now() + (options.deadlineMs ?? (browser ? 60_000 : 40_000));
  const endpoint = targetEndpoint(target);
  const subject = { scan_mode: target.scan_mode, api_format: target.api_format, url: target.url, endpoint, has_api_key: target.has_api_key ?? target.api_key !== null };
  const started = performance.now();
  const attempt = await once(target, options, timeoutMs, browser, deadline);
  const latency_ms = Math.round(performance.now() - started);

  let alternative: string | null = null;
  const failure = attempt.outcome.kind === 'failed' ? attempt.outcome.failure : null;
  if (!browser && failure?.kind === 'http' && (failure.status === 404 || failure.status === 405)) {
    for (const url of alternativeUrls(target)) {
      if (deadline - Date.now() < 1_000) break;
      const other = await once({ ...target, url }, options, Math.min(timeoutMs, 10_000), false, deadline);
      if (other.outcome.kind === 'answered') {
        alternative = targetEndpoint({ ...target, url });
        break;
      }
    }
  }
  const verdict = diagnose(subject, attempt.outcome, latency_ms, alternative);
  return {
    ...verdict,
    endpoint,
    status: attempt.status,
    latency_ms,
    answer: attempt.outcome.kind === 'answered' ? attempt.outcome.answer.slice(0, 500) : null,
    screenshot: attempt.screenshot,
  };
}

type Attempt = { outcome: CheckOutcome; status: number | null; screenshot: Buffer | null };

/** how long closing the driver may take after the deadline: the answer is not held up longer */
const CLOSE_GRACE_MS = 10_000;

async function once(target: ChatTarget, options: CheckOptions, timeoutMs: number, browser: boolean, deadline: number): Promise<Attempt> {
  const driver =
    options.driverFor?.(target) ??
    (browser
      ? createChatDriver(target, { allowPrivate: options.allowPrivate, chromiumPath: options.chromiumPath, timeoutMs, screenshotOnFailure: true, operationTimeoutMs: options.operationTimeoutMs, navigationTimeoutMs: options.navigationTimeoutMs })
      : createChatDriver(target, { allowPrivate: options.allowPrivate, timeoutMs, retry: { attempts: 1, maxThrottledAttempts: 1 } }));
  let conversation: Conversation | null = null;
  const budgetMs = Math.max(1, deadline - Date.now());
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), budgetMs)));
  const work = (async (): Promise<Attempt> => {
    conversation = await driver.openConversation();
    const answer = await conversation.send(CHECK_MESSAGE, { signal: AbortSignal.timeout(Math.min(timeoutMs + 5_000, budgetMs)) });
    const screenshot = browser ? ((await conversation.screenshot?.()) ?? null) : null;
    const observed = conversation.observe?.() ?? null;
    const reading = observed?.attribution ? { attribution: observed.attribution, ...(observed.attribution_reason && { attribution_reason: observed.attribution_reason }) } : {};
    return { outcome: { kind: 'answered', answer, ...reading }, status: browser ? null : 200, screenshot };
  })();
  try {
    const won = await Promise.race([work, expired]);
    if (won !== 'expired') return won;
    // the page (or API) still holds the check: answer now; closing the driver below ends the work
    work.catch(() => undefined);
    const open = conversation as Conversation | null;
    const screenshot = browser && open ? await within(Promise.resolve(open.screenshot?.() ?? null), 5_000, 'a screenshot').catch(() => null) : null;
    const seconds = Math.round(budgetMs / 1000);
    return {
      outcome: browser
        ? { kind: 'failed', failure: { kind: 'page', step: 'settle' }, message: `nothing came of it within ${seconds} s (the check's deadline); the browser was closed` }
        : { kind: 'failed', failure: { kind: 'timeout', ms: budgetMs }, message: `no answer within ${seconds} s` },
      status: null,
      screenshot,
    };
  } catch (err) {
    const known = err instanceof TargetUnavailableError || err instanceof TargetProtocolError ? err : null;
    const failure = known?.failure ?? null;
    const open = conversation as Conversation | null;
    const screenshot = known?.screenshot ?? (browser && open ? ((await open.screenshot?.()) ?? null) : null);
    return {
      outcome: { kind: 'failed', failure, message: err instanceof Error ? err.message : String(err) },
      status: failure?.kind === 'http' ? failure.status : failure?.kind === 'unreadable' ? (failure.status ?? null) : null,
      screenshot,
    };
  } finally {
    clearTimeout(timer);
    const open = conversation as Conversation | null;
    // released on every path, success, failure or deadline; a close that hangs is given up on
    await within(Promise.resolve(open?.close()), CLOSE_GRACE_MS, 'closing the page').catch(() => undefined);
    await within(driver.close(), CLOSE_GRACE_MS, 'closing the driver').catch(() => undefined);
  }
}

/**
 * Other URLs a 404 might have meant, most likely first: the API under /v1 of the same path,
 * or at the server's root. Only those that change the endpoint called are tried.
 */
export function alternativeUrls(target: Pick<ChatTarget, 'api_format' | 'url' | 'model' | 'stream'>): string[] {
  // the tail its endpoints end with (formats/): a format without one names its whole URL
  const tail = target.api_format ? apiFormat(target.api_format).alternativeTail : undefined;
  if (!tail) return [];
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return [];
  }
  const path = url.pathname.replace(/\/+$/, '');
  const base = path.replace(tail, '');
  const candidates = [...(base.endsWith('/v1') ? [] : [`${base}/v1`]), base.replace(/\/v1$/, ''), ''].map((p) => {
    const u = new URL(url);
    u.pathname = p || '/';
    return u.toString();
  });
  const now = apiEndpoint({ api_format: target.api_format, url: target.url, model: target.model, stream: target.stream });
  const seen = new Set([now]);
  return candidates.filter((c) => {
    const e = apiEndpoint({ api_format: target.api_format, url: c, model: target.model, stream: target.stream });
    if (seen.has(e)) return false;
    seen.add(e);
    return true;
  });
}
