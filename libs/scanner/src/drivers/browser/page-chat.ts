import type { PageObservation } from '@gauntlet/domain';
import type { GuardedProxy } from '@gauntlet/outbound';
import type { Page } from 'playwright';
import { TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { effectsOfAnswer, ownMessageUrls, PageEffects } from './answer-effects';
import { AnswerWait, awaitAnswer } from './answer-reader';
import { BrowserSelectorsConfig, ChatControls } from './chat-controls';
import { closeContext, within } from './deadlines';
import { asTargetError, BrowserLog } from './page-errors';

/** What a page chat needs of the driver's settings. */
export interface PageChatSettings extends AnswerWait {
  /** page load plus the chat input showing up */
  navigationTimeoutMs: number;
  /** longest wait for any one browser operation */
  operationTimeoutMs: number;
  log?: BrowserLog;
}

/**
 * The chat on one page: loaded and its input found, one message sent and the bot's answer read,
 * and what the page did meanwhile, recorded as the answer's observation (the markup the bot's
 * message added, the effects it caused, what our own message loads as the page showed it).
 */
export class PageChat {
  crashed = false;
  private readonly controls: ChatControls;
  private readonly effects: PageEffects;
  private observed: PageObservation | null = null;

  constructor(
    private readonly page: Page,
    private readonly selectors: BrowserSelectorsConfig,
    private readonly settings: PageChatSettings,
  ) {
    page.on('crash', () => (this.crashed = true));
    this.effects = new PageEffects(page);
    this.controls = new ChatControls(page, selectors, (op, what) => this.bounded(op, what));
  }

  /** one browser operation, bounded */
  private bounded<T>(op: Promise<T>, what: string): Promise<T> {
    return within(op, this.settings.operationTimeoutMs, what);
  }

  observe(): PageObservation | null {
    return this.observed;
  }

  async load(url: string, proxy: GuardedProxy): Promise<void> {
    const response = await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: this.settings.navigationTimeoutMs });
    if (response?.headers()['x-outbound-refused']) {
      const last = proxy.refusals[proxy.refusals.length - 1];
      const detail = last ? `${last.host}: ${last.reason}` : 'refused';
      throw new TargetUnavailableError(`the chat page was refused by the outbound policy: ${detail}`, undefined, { kind: 'refused', detail });
    }
    const http = response && { kind: 'http' as const, status: response.status(), contentType: response.headers()['content-type'] ?? '' };
    if (http && http.status >= 500) throw new TargetUnavailableError(`the chat page answered HTTP ${http.status}`, undefined, http);
    if (http && http.status >= 400) throw new TargetProtocolError(`the chat page answered HTTP ${http.status}`, http);
    await this.controls.input(this.settings.navigationTimeoutMs);
  }

  /** sends one message and reads the bot's answer to it; throws what went wrong as it came (see failure) */
  async exchange(message: string, signal?: AbortSignal): Promise<string> {
    const { frame, input } = await this.controls.input(Math.min(10_000, this.settings.navigationTimeoutMs));
    await this.bounded(frame.evaluate(([i, r]) => window.__gauntlet!.snapshot(i as Element, r), [input, this.selectors.response_selector ?? null] as const), 'noting the page before sending');
    this.observed = null;
    this.effects.reset();
    const title = await this.bounded(this.page.title(), 'reading the title').catch(() => '');
    this.effects.watching = true;
    await input.fill(message);
    await this.controls.submit({ frame, input, send: await this.controls.send(frame, input) }, signal);
    const answer = await awaitAnswer(frame, this.settings, (op, what) => this.bounded(op, what), () => this.crashed, signal);
    this.effects.watching = false;
    const now = await this.bounded(this.page.title(), 'reading the title').catch(() => title);
    if (now !== title) this.effects.note('title', now);
    const seen = await this.bounded(frame.evaluate(() => window.__gauntlet!.observation()), 'reading what the answer brought').catch(() => null);
    const markup = seen?.markup || undefined;
    // an effect counts only when it came from the bot's message, never from the page showing ours
    const effects = seen ? effectsOfAnswer(this.effects.noted, seen) : [];
    const own = seen ? ownMessageUrls(message, seen.oursUrls) : [];
    this.observed = {
      ...(markup && { markup }),
      ...(effects.length && { effects }),
      ...(own.length && { own_message_urls: own }),
      ...(answer.cutOffAfterMs ? { cut_off_after_ms: answer.cutOffAfterMs } : {}),
      attribution: seen?.attribution ?? 'uncertain',
      attribution_reason: seen?.reason ?? 'the page could not be read after the answer',
    };
    return answer.text;
  }

  /** what went wrong in an exchange, in Gauntlet's words (the browser's own at debug in the log) */
  failure(err: unknown): TargetUnavailableError | TargetProtocolError {
    return asTargetError(err, this.crashed ? 'the chat page crashed' : 'the chat page stopped answering', { kind: 'page', step: 'answer' }, this.settings.log);
  }

  async screenshot(): Promise<Buffer | null> {
    return this.page.screenshot({ type: 'png', timeout: 5_000 }).catch(() => null);
  }

  async close(): Promise<void> {
    await closeContext(this.page.context());
  }
}
