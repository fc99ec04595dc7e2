import type { CallbackHook } from '@gauntlet/outbound';
import { checkOutboundUrl, GuardedProxy, startGuardedProxy } from '@gauntlet/outbound';
import type { Browser, BrowserContext, Page } from 'playwright';
import { ChatDriver, Conversation, TargetUnavailableError } from '../../chat-driver';
import type { SpendMeter } from '../../budget/meter';
import { BrowserSelectorsConfig } from './chat-controls';
import { findChromium } from './chromium';
import { BrowserConversation } from './conversation';
import { CLOSE_MS, closeContext, within } from './deadlines';
import { launchChromium } from './launch';
import { PageChat, PageChatSettings } from './page-chat';
import { asTargetError, BrowserLog } from './page-errors';
import { pageScript } from './page-script';

/**
 * The browser driver, in parts a reader can name: this file launches (a browser per driver, the
 * guarded proxy) and opens and closes what it holds; `conversation.ts` is one conversation and
 * its recovery; `page-chat.ts` one page's chat (a message sent, the answer read, what the page
 * did); `chat-controls.ts` finds the input and the send control; `answer-reader.ts` waits until
 * an answer is whole; `answer-effects.ts` tells what the bot's message caused; `page-errors.ts`
 * says what went wrong in Gauntlet's words; `deadlines.ts` bounds every browser operation;
 * `launch.ts` and `chromium.ts` start Chromium; the page script (`page/`, `page-script.ts`) reads
 * the page from inside.
 */
export type { BrowserSelectorsConfig } from './chat-controls';
export type { BrowserLog } from './page-errors';
export { launchChromium } from './launch';

export interface BrowserChatDriverOptions {
  /** Gauntlet's callback listener: the page's requests to it are recorded at the proxy, never connected out */
  callbacks?: CallbackHook;
  /** OUTBOUND_ALLOW_PRIVATE: may the page (and everything it loads) reach private addresses */
  allowPrivate: boolean;
  /** CHROMIUM_PATH; unset: found by findChromium (Playwright's Chromium, then a system one), never downloaded */
  chromiumPath?: string | null;
  /**
   * longest wait for one answer (default 45 s: under the engine's 60 s bound, so an answer still
   * streaming is read as far as it got, not lost)
   */
  timeoutMs?: number;
  /** a streamed answer is over when its text has not changed for this long (default 1.2 s) */
  quietMs?: number;
  /** page load plus the chat input showing up (default 30 s) */
  navigationTimeoutMs?: number;
  /**
   * longest wait for any one browser operation (a script evaluated in the page, a click, a
   * title): a page that never settles must not hold a scan or a check forever (default 5 s)
   */
  operationTimeoutMs?: number;
  /** an already launched browser to share (tests); the driver then does not close it */
  browser?: Browser;
  /** a conversation that cannot be opened carries a screenshot of the page on its error (the connection check) */
  screenshotOnFailure?: boolean;
  /** where the browser's own words go (Playwright's error text, at debug): for whoever diagnoses a page */
  log?: BrowserLog;
  /** the scan's meter: what a fresh page is sent again counts as retries (the messages are counted around the driver) */
  meter?: SpendMeter;
}

/**
 * Talks to a chat page in real Chromium, as a visitor would. One browser per driver (lazily
 * launched), one fresh context per conversation, and the conversation stays in one page (a
 * fresh one, the messages sent again, if the page falls over: conversation.ts).
 *
 * Every request the page makes goes through a guarded forward proxy on loopback (see
 * startGuardedProxy) rather than route interception: the proxy checks the address actually
 * connected to after DNS, so rebinding cannot slip through, and it also covers WebSockets,
 * workers and redirects, which routes do not all see.
 */
export class BrowserChatDriver implements ChatDriver {
  private started: Promise<{ browser: Browser; proxy: GuardedProxy }> | null = null;
  private closed = false;
  /** every context this driver opened and has not closed: close() closes what is left */
  private readonly contexts = new Set<BrowserContext>();
  private readonly options: Settings;

  constructor(private readonly target: { url: string; browser?: BrowserSelectorsConfig | null }, options: BrowserChatDriverOptions) {
    this.options = {
      allowPrivate: options.allowPrivate,
      chromiumPath: options.chromiumPath ?? null,
      timeoutMs: options.timeoutMs ?? 45_000,
      quietMs: options.quietMs ?? 1_200,
      navigationTimeoutMs: options.navigationTimeoutMs ?? 30_000,
      operationTimeoutMs: options.operationTimeoutMs ?? 5_000,
      browser: options.browser,
      screenshotOnFailure: options.screenshotOnFailure ?? false,
      callbacks: options.callbacks,
      log: options.log,
      meter: options.meter,
    };
  }

  async openConversation(): Promise<Conversation> {
    const url = this.checkedUrl();
    const chat = await this.openChat(url);
    return new BrowserConversation(chat, () => this.openChat(url), this.options.log, this.options.meter);
  }

  /** the chat page's address, once the outbound policy admits it */
  private checkedUrl(): string {
    if (this.closed) throw new Error('this chat driver is closed');
    const check = checkOutboundUrl(this.target.url, { allowPrivate: this.options.allowPrivate });
    if (!check.ok) throw new TargetUnavailableError(`chat page ${check.reason}`, undefined, { kind: 'refused', detail: check.reason });
    return check.url.href;
  }

  /** the chat page loaded in a fresh context (no cookies, no storage: a new visitor), its chat input found */
  private async openChat(url: string): Promise<PageChat> {
    const { browser, proxy } = await this.start();
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    const op = this.options.operationTimeoutMs;
    // a context and a blank page are the browser's own work, nothing the target wrote: bringing
    // them up belongs to the page's load and its deadline (a busy machine starts a renderer in
    // seconds), not to the short one of an operation inside a page
    const opening = this.options.navigationTimeoutMs;
    try {
      // the proxy is set per context: a shared browser then still has each driver's policy;
      // service workers and downloads are off (a worker outlives the page, a download writes to disk)
      context = await within(
        browser.newContext({ proxy: { server: proxy.url }, serviceWorkers: 'block', acceptDownloads: false, viewport: { width: 1280, height: 900 } }),
        opening,
        'opening a browser context',
      );
      this.contexts.add(context);
      const opened = context;
      opened.on('close', () => this.contexts.delete(opened));
      if (this.closed) throw new Error('this chat driver is closed');
      context.setDefaultTimeout(op);
      context.setDefaultNavigationTimeout(this.options.navigationTimeoutMs);
      await within(context.addInitScript(pageScript()), opening, 'preparing the page');
      page = await within(context.newPage(), opening, 'opening a page');
      const ours = page;
      // popups (window.open, target=_blank) are closed as they open: the chat is in our page
      context.on('page', (other) => void (other !== ours && other.close().catch(() => undefined)));
      const chat = new PageChat(page, this.target.browser ?? {}, this.options);
      await chat.load(url, proxy);
      return chat;
    } catch (err) {
      const failed = asTargetError(err, 'the chat page did not load', { kind: 'page', step: 'load' }, this.options.log);
      if (this.options.screenshotOnFailure && page) failed.screenshot = await page.screenshot({ type: 'png', timeout: 5_000 }).catch(() => undefined);
      if (context) await closeContext(context);
      throw failed;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const started = await this.started?.catch(() => null);
    await Promise.all([...this.contexts].map(closeContext));
    if (started && !this.options.browser) await within(started.browser.close(), CLOSE_MS, 'closing Chromium').catch(() => undefined);
    if (started) await within(started.proxy.close(), CLOSE_MS, 'closing the outbound proxy').catch(() => undefined);
  }

  private start(): Promise<{ browser: Browser; proxy: GuardedProxy }> {
    this.started ??= (async () => {
      let executable = this.options.chromiumPath;
      if (!this.options.browser && !executable) {
        const found = await findChromium();
        if (!found.found) throw new TargetUnavailableError(found.message, undefined, { kind: 'page', step: 'launch', install: found.install });
        executable = found.path;
      }
      const proxy = await startGuardedProxy({ allowPrivate: this.options.allowPrivate }, { onCallback: this.options.callbacks });
      try {
        const browser = this.options.browser ?? (await launchChromium(executable!));
        return { browser, proxy };
      } catch (err) {
        await proxy.close();
        throw new TargetUnavailableError(`Chromium did not start (${executable})`, err, { kind: 'page', step: 'launch' });
      }
    })();
    // a failed launch is not cached: the next conversation tries again
    this.started.catch(() => (this.started = null));
    return this.started;
  }
}

type Settings = Required<Omit<BrowserChatDriverOptions, 'chromiumPath' | 'browser' | 'callbacks' | 'log' | 'meter'>> & { chromiumPath: string | null; browser?: Browser; callbacks?: CallbackHook; log?: BrowserLog; meter?: SpendMeter } & PageChatSettings;
