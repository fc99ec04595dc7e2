import { apiEndpoint, ApiFormat, apiFormat, BrowserSelectors, HttpFormat, isApiFormat, ScanMode } from '@gauntlet/domain';
import type { CallbackHook } from '@gauntlet/outbound';
import { ChatDriver, TargetProtocolError } from '../chat-driver';
import { ApiFormatChatDriver } from './api/api-format-driver';
import { ApiDriverOptions } from './api/api-transport';
import { RetryPolicy } from './api/retry-policy';
import { BrowserChatDriver, BrowserLog } from './browser/browser-chat-driver';
import type { SpendMeter } from '../budget/meter';
import { meteredDriver } from './metered-driver';

/**
 * What a driver needs of a target. `url` is what the user typed: for api targets a base URL
 * or the full endpoint (endpoint.ts says which is called), for browser targets the chat page.
 * `api_key` and `headers` are plain, opened by the caller just before; they go only into the
 * request headers.
 */
export interface ChatTarget {
  scan_mode: ScanMode;
  api_format: ApiFormat | null;
  url: string;
  api_key: string | null;
  model: string | null;
  http: HttpFormat | null;
  browser: BrowserSelectors | null;
  max_requests_per_second: number | null;
  /** custom request headers for a gateway */
  headers?: Record<string, string> | null;
  /** ask the API to stream its answers */
  stream?: boolean;
}

export interface ChatDriverOptions {
  /** OUTBOUND_ALLOW_PRIVATE */
  allowPrivate: boolean;
  /** CHROMIUM_PATH (browser targets); unset or null: findChromium finds one */
  chromiumPath?: string | null;
  /** per request (api) or per answer (browser); default 60 s */
  timeoutMs?: number;
  /** api targets: attempts and backoff; the defaults suit production */
  retry?: Partial<RetryPolicy>;
  /** api targets: conversations in flight at first and at most, as the pacing learns the target */
  concurrency?: { initial: number; max: number };
  /** browser targets: a page that fails to open comes with a screenshot on the error */
  screenshotOnFailure?: boolean;
  /** browser targets: longest wait for one browser operation (default 5 s) */
  operationTimeoutMs?: number;
  /** browser targets: longest wait for the page to load and show its chat input (default 30 s) */
  navigationTimeoutMs?: number;
  /** browser targets: Gauntlet's callback listener, answered at the page's proxy */
  callbacks?: CallbackHook;
  /** browser targets: where Playwright's own error text goes (debug) */
  log?: BrowserLog;
  /** counts every request before it goes out, refusing what would cross the scan's budget */
  meter?: SpendMeter;
}

/** the endpoint a driver for `target` calls (the chat page for browser targets) */
export function targetEndpoint(target: Pick<ChatTarget, 'scan_mode' | 'api_format' | 'url' | 'model' | 'stream'>): string {
  return target.scan_mode === 'browser' ? target.url : apiEndpoint({ api_format: target.api_format, url: target.url, model: target.model, stream: target.stream });
}

/** the driver for a target; nothing connects until a conversation is opened */
export function createChatDriver(target: ChatTarget, options: ChatDriverOptions): ChatDriver {
  const api: ApiDriverOptions = {
    allowPrivate: options.allowPrivate, timeoutMs: options.timeoutMs, maxRequestsPerSecond: target.max_requests_per_second, retry: options.retry,
    concurrency: options.concurrency, headers: target.headers ?? null, meter: options.meter,
  };
  if (target.scan_mode === 'browser') {
    const page = new BrowserChatDriver(
      { url: target.url, browser: target.browser },
      { allowPrivate: options.allowPrivate, chromiumPath: options.chromiumPath, timeoutMs: options.timeoutMs, screenshotOnFailure: options.screenshotOnFailure, operationTimeoutMs: options.operationTimeoutMs, navigationTimeoutMs: options.navigationTimeoutMs, callbacks: options.callbacks, log: options.log, meter: options.meter },
    );
    return options.meter ? meteredDriver(page, options.meter) : page;
  }
  if (!isApiFormat(target.api_format)) throw new TargetProtocolError(`api_format ${String(target.api_format)} is not supported for api targets`);
  const format = apiFormat(target.api_format);
  const settings = { model: target.model, stream: target.stream ?? false, http: target.http };
  const problem = format.settingsProblem?.(settings);
  if (problem) throw new TargetProtocolError(problem);
  return new ApiFormatChatDriver(format, { url: targetEndpoint(target), api_key: target.api_key, ...settings }, api);
}
