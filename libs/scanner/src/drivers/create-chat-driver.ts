import { ApiFormat, BrowserSelectors, HttpFormat, ScanMode } from '@gauntlet/domain';
import { ChatDriver, TargetProtocolError } from '../chat-driver';
import { AnthropicChatDriver } from './api/anthropic-chat-driver';
import { HttpJsonChatDriver } from './api/http-json-chat-driver';
import { OpenAiChatDriver } from './api/openai-chat-driver';
import { RetryPolicy } from './api/retry-policy';
import { BrowserChatDriver } from './browser/browser-chat-driver';

/**
 * What a driver needs of a target. `url` is the full endpoint for api targets (e.g.
 * https://api.openai.com/v1/chat/completions, https://api.anthropic.com/v1/messages), not a
 * base URL, and the chat page for browser targets. `api_key` is the plain key, decrypted by
 * the caller just before; it goes only into the Authorization / x-api-key header.
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
}

export interface ChatDriverOptions {
  /** OUTBOUND_ALLOW_PRIVATE */
  allowPrivate: boolean;
  /** CHROMIUM_PATH (browser targets); default /usr/bin/chromium */
  chromiumPath?: string;
  /** per request (api) or per answer (browser); default 60 s */
  timeoutMs?: number;
  /** api targets: attempts and backoff; the defaults suit production */
  retry?: Partial<RetryPolicy>;
}

/** the driver for a target; nothing connects until a conversation is opened */
export function createChatDriver(target: ChatTarget, options: ChatDriverOptions): ChatDriver {
  const api = { allowPrivate: options.allowPrivate, timeoutMs: options.timeoutMs, maxRequestsPerSecond: target.max_requests_per_second, retry: options.retry };
  if (target.scan_mode === 'browser') {
    return new BrowserChatDriver(
      { url: target.url, browser: target.browser },
      { allowPrivate: options.allowPrivate, chromiumPath: options.chromiumPath, timeoutMs: options.timeoutMs },
    );
  }
  switch (target.api_format) {
    case 'openai':
      return new OpenAiChatDriver({ url: target.url, api_key: target.api_key, model: target.model }, api);
    case 'anthropic':
      return new AnthropicChatDriver({ url: target.url, api_key: target.api_key, model: target.model }, api);
    case 'http':
      if (!target.http) throw new TargetProtocolError('api_format http needs http {body_template, response_path}');
      return new HttpJsonChatDriver({ url: target.url, api_key: target.api_key, ...target.http }, api);
    default:
      throw new TargetProtocolError(`api_format ${String(target.api_format)} is not supported for api targets`);
  }
}
