import { setTimeout as sleep } from 'node:timers/promises';
import type { PageObservation } from '@gauntlet/domain';
import { CallbackHook, checkOutboundUrl, GuardedProxy, startGuardedProxy } from '@gauntlet/outbound';
import type { Browser, BrowserContext, ElementHandle, Frame, Page } from 'playwright';
import { ChatDriver, Conversation, TargetFailure, TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { findChromium } from './chromium';
import { inGauntletWords } from './page-errors';
import { PAGE_SCRIPT } from './page-script';

export interface BrowserSelectorsConfig {
  input_selector?: string;
  send_selector?: string;
  response_selector?: string;
}

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
}

/** The part of a logger the driver writes to (pino's shape). */
export interface BrowserLog {
  debug(fields: Record<string, unknown>, message: string): void;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // no crash handler: it daemonises away from the browser's process tree, nothing we would read
  '--disable-crash-reporter',
  '--disable-breakpad',
  // WebRTC would otherwise send UDP (STUN, TURN, media) around the proxy: with this policy and an
  // HTTP proxy it gathers no UDP candidates at all (the "force-" spelling alone did not hold)
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
  // Chromium resolves no name itself: pages go through the proxy, which resolves and checks;
  // prefetches, preconnects and anything else that would look a name up get "not found"
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  // no secure-DNS lookups, no casting discovery (multicast UDP), no hints fetched for the browser
  '--disable-features=DnsOverHttps,MediaRouter,DialMediaRouteProvider,OptimizationHints',
];

/** a browser operation that ran past its deadline: the page keeps the browser busy */
export class PageDidNotSettleError extends TargetUnavailableError {
  constructor(what: string, ms: number) {
    super(`the page did not settle: ${what} took longer than ${ms} ms`, undefined, { kind: 'page', step: 'settle' });
    this.name = 'PageDidNotSettleError';
  }
}

/**
 * `op`, or a PageDidNotSettleError once `ms` pass. Playwright bounds clicks and navigations
 * itself but not scripts evaluated in a page: a frame that never gets an execution context (a
 * file: or chrome: frame), a busy loop or a dialog storm would leave them pending forever.
 */
export function within<T>(op: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PageDidNotSettleError(what, ms)), ms);
  });
  // the losing operation settles later (or when its context closes): nobody awaits it then
  op.catch(() => undefined);
  return Promise.race([op, expired]).finally(() => clearTimeout(timer));
}

/** how long closing a browser, context or proxy may take before it is given up on */
const CLOSE_MS = 10_000;

const POLL_MS = 150;

/**
 * Talks to a chat page in real Chromium, as a visitor would. One browser per driver (lazily
 * launched), one fresh context per conversation, and the conversation stays in one page.
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
    };
  }

  async openConversation(): Promise<Conversation> {
    const url = this.checkedUrl();
    const chat = await this.openChat(url);
    return new BrowserConversation(chat, () => this.openChat(url), this.options.log);
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
    try {
      // the proxy is set per context: a shared browser then still has each driver's policy;
      // service workers and downloads are off (a worker outlives the page, a download writes to disk)
      context = await within(
        browser.newContext({ proxy: { server: proxy.url }, serviceWorkers: 'block', acceptDownloads: false, viewport: { width: 1280, height: 900 } }),
        op,
        'opening a browser context',
      );
      this.contexts.add(context);
      const opened = context;
      opened.on('close', () => this.contexts.delete(opened));
      if (this.closed) throw new Error('this chat driver is closed');
      context.setDefaultTimeout(op);
      context.setDefaultNavigationTimeout(this.options.navigationTimeoutMs);
      await within(context.addInitScript(PAGE_SCRIPT), op, 'preparing the page');
      page = await within(context.newPage(), op, 'opening a page');
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

type Settings = Required<Omit<BrowserChatDriverOptions, 'chromiumPath' | 'browser' | 'callbacks' | 'log'>> & { chromiumPath: string | null; browser?: Browser; callbacks?: CallbackHook; log?: BrowserLog };

async function closeContext(context: BrowserContext): Promise<void> {
  await within(context.close(), CLOSE_MS, 'closing a browser context').catch(() => undefined);
}

/**
 * Chromium headless with the flags that keep a page inside the guarded proxy; `executablePath`
 * defaults to what findChromium finds (CHROMIUM_PATH, Playwright's Chromium, a system one).
 */
export async function launchChromium(executablePath?: string): Promise<Browser> {
  if (!executablePath) {
    const found = await findChromium();
    if (!found.found) throw new TargetUnavailableError(found.message, undefined, { kind: 'page', step: 'launch', install: found.install });
    executablePath = found.path;
  }
  // loaded on first use: every process that imports the scanner (the api, for the agent judge)
  // would otherwise pay for Playwright at start-up without ever opening a browser
  const { chromium } = await import('playwright');
  return chromium.launch({ executablePath, headless: true, chromiumSandbox: false, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** Effects recorded per answer, at most: a page flooding requests or dialogs must not flood the record. */
const MAX_EFFECTS = 20;
type Effect = NonNullable<PageObservation['effects']>[number];

/**
 * One conversation with the chat page, as the engine holds it. When the page stops answering in a
 * way a fresh page may not (our reader failed on it, it crashed, navigated away, or its controls
 * went), the conversation is had again once in a new context (a new visitor: no storage, so a
 * widget that keeps its conversation across page loads starts empty): the messages sent so far
 * are sent again, then this one. Waiting out the target is not recovered: that is the target's.
 */
class BrowserConversation implements Conversation {
  /** the messages answered in this conversation, to send again on a fresh page */
  private readonly sent: string[] = [];
  private recovered = false;

  constructor(
    private chat: PageChat,
    private readonly open: () => Promise<PageChat>,
    private readonly log: BrowserLog | undefined,
  ) {}

  async send(message: string, options: { signal?: AbortSignal } = {}): Promise<string> {
    const { signal } = options;
    signal?.throwIfAborted();
    try {
      return this.answered(message, await this.chat.exchange(message, signal));
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      const failed = this.chat.failure(err);
      if (this.recovered || !(this.chat.crashed || recoverable(err))) throw failed;
      this.recovered = true;
      this.log?.debug({ reason: failed.message, resent: this.sent.length }, 'the chat page stopped answering: the conversation goes on in a fresh page');
      try {
        await this.chat.close();
        this.chat = await this.open();
        for (const earlier of this.sent) await this.chat.exchange(earlier, signal);
        return this.answered(message, await this.chat.exchange(message, signal));
      } catch (again) {
        if (signal?.aborted) throw signal.reason;
        const second = this.chat.failure(again);
        throw new TargetUnavailableError(`${failed.message}; a fresh page did not answer either (${second.message.replace(/^the chat page /, '')})`, again, second.failure ?? failed.failure);
      }
    }
  }

  private answered(message: string, answer: string): string {
    this.sent.push(message);
    return answer;
  }

  observe(): PageObservation | null {
    return this.chat.observe();
  }

  screenshot(): Promise<Buffer | null> {
    return this.chat.screenshot();
  }

  close(): Promise<void> {
    return this.chat.close();
  }
}

/**
 * A failure a fresh page may mend (besides a crash): the browser's own (our reader failing on the
 * page, a context destroyed by the page navigating), or the chat's controls gone. Not a target that does
 * not answer in time, a page that never settles, or one refused or answering an HTTP error.
 */
function recoverable(err: unknown): boolean {
  if (err instanceof PageDidNotSettleError) return false;
  if (err instanceof TargetUnavailableError || err instanceof TargetProtocolError) {
    const failure = err.failure;
    return failure?.kind === 'page' && (failure.step === 'input' || failure.step === 'send');
  }
  return true;
}

/** The chat on one page: its controls, a message sent, the answer read, what the page did meanwhile. */
class PageChat {
  crashed = false;
  /** frames that let an evaluation run past its deadline once: not waited on again */
  private readonly unresponsive = new WeakSet<Frame>();
  /** the page itself ran past the deadline this many times in a row */
  private busyRounds = 0;
  /** what the page did since the last message was sent: the proof that an answer took effect */
  private effects: Effect[] = [];
  private watching = false;
  private observed: PageObservation | null = null;
  private cutOffAfterMs: number | null = null;

  constructor(
    private readonly page: Page,
    private readonly selectors: BrowserSelectorsConfig,
    private readonly options: Settings,
  ) {
    page.on('crash', () => (this.crashed = true));
    // a dialog is script running in the page; it is noted and closed so the page goes on
    page.on('dialog', (dialog) => {
      this.note('dialog', `${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    });
    // requests to other hosts while an answer shows: an image or link beaconing out
    page.on('request', (request) => {
      if (!this.watching) return;
      try {
        if (new URL(request.url()).origin !== new URL(page.url()).origin) this.note('request', request.url());
      } catch {
        /* data: and other URLs without an origin load nothing from anywhere */
      }
    });
    page.on('console', (message) => this.watching && this.note('console', message.text()));
  }

  /** one browser operation, bounded */
  private bounded<T>(op: Promise<T>, what: string): Promise<T> {
    return within(op, this.options.operationTimeoutMs, what);
  }

  private note(kind: Effect['kind'], detail: string): void {
    if (this.effects.length < MAX_EFFECTS) this.effects.push({ kind, detail: detail.slice(0, 500) });
  }

  observe(): PageObservation | null {
    return this.observed;
  }

  async load(url: string, proxy: GuardedProxy): Promise<void> {
    const response = await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: this.options.navigationTimeoutMs });
    if (response?.headers()['x-outbound-refused']) {
      const last = proxy.refusals[proxy.refusals.length - 1];
      const detail = last ? `${last.host}: ${last.reason}` : 'refused';
      throw new TargetUnavailableError(`the chat page was refused by the outbound policy: ${detail}`, undefined, { kind: 'refused', detail });
    }
    const http = response && { kind: 'http' as const, status: response.status(), contentType: response.headers()['content-type'] ?? '' };
    if (http && http.status >= 500) throw new TargetUnavailableError(`the chat page answered HTTP ${http.status}`, undefined, http);
    if (http && http.status >= 400) throw new TargetProtocolError(`the chat page answered HTTP ${http.status}`, http);
    await this.controls(this.options.navigationTimeoutMs);
  }

  /** sends one message and reads the bot's answer to it; throws what went wrong as it came (see failure) */
  async exchange(message: string, signal?: AbortSignal): Promise<string> {
    {
      const { frame, input } = await this.controls(Math.min(10_000, this.options.navigationTimeoutMs));
      await this.bounded(frame.evaluate(([i, r]) => (window as any).__gauntlet.snapshot(i, r), [input, this.selectors.response_selector ?? null] as const), 'noting the page before sending');
      this.observed = null;
      this.effects = [];
      this.cutOffAfterMs = null;
      const title = await this.bounded(this.page.title(), 'reading the title').catch(() => '');
      this.watching = true;
      await input.fill(message);
      await this.submit({ frame, input, send: await this.sendControl(frame, input) }, signal);
      const answer = await this.awaitAnswer(frame, signal);
      this.watching = false;
      const now = await this.bounded(this.page.title(), 'reading the title').catch(() => title);
      if (now !== title) this.note('title', now);
      const seen = (await this.bounded(frame.evaluate(() => (window as any).__gauntlet.observation()), 'reading what the answer brought').catch(() => null)) as AnswerReading | null;
      const cut = this.cutOffAfterMs;
      const markup = seen?.markup || undefined;
      // an effect counts only when it came from the bot's message, never from the page showing ours
      const effects = seen ? effectsOfAnswer(this.effects, seen) : [];
      const own = seen ? ownMessageUrls(message, seen.oursUrls) : [];
      this.observed = {
        ...(markup && { markup }),
        ...(effects.length && { effects }),
        ...(own.length && { own_message_urls: own }),
        ...(cut ? { cut_off_after_ms: cut } : {}),
        attribution: seen?.attribution ?? 'uncertain',
        attribution_reason: seen?.reason ?? 'the page could not be read after the answer',
      };
      return answer;
    }
  }

  /** what went wrong in an exchange, in Gauntlet's words (the browser's own at debug in the log) */
  failure(err: unknown): TargetUnavailableError | TargetProtocolError {
    return this.crashed
      ? asTargetError(err, 'the chat page crashed', { kind: 'page', step: 'answer' }, this.options.log)
      : asTargetError(err, 'the chat page stopped answering', { kind: 'page', step: 'answer' }, this.options.log);
  }

  async screenshot(): Promise<Buffer | null> {
    return this.page.screenshot({ type: 'png', timeout: 5_000 }).catch(() => null);
  }

  async close(): Promise<void> {
    await closeContext(this.page.context());
  }

  /** finds the chat input in whichever frame holds the best-looking one, opening a closed widget */
  private async controls(waitMs: number): Promise<{ frame: Frame; input: ElementHandle }> {
    const deadline = Date.now() + waitMs;
    let launcherClicks = 0;
    for (let round = 0; ; round++) {
      const found = await this.findInput();
      if (found) return found;
      // a closed widget shows only its launcher bubble: open it once or twice
      if (round >= 2 && launcherClicks < 2 && !this.selectors.input_selector) {
        for (const frame of this.page.frames()) {
          if (!scriptable(frame)) continue;
          const launcher = (await this.bounded(frame.evaluateHandle(() => (window as any).__gauntlet?.findLauncher() ?? null), 'looking for a chat launcher').catch(() => null))?.asElement();
          if (launcher) {
            launcherClicks++;
            await launcher.click({ timeout: 2_000 }).catch(() => undefined);
            break;
          }
        }
      }
      if (Date.now() > deadline) {
        throw new TargetProtocolError(
          this.selectors.input_selector
            ? `browser.input_selector "${this.selectors.input_selector}" matches nothing visible`
            : 'no chat input found on the page; set browser.input_selector (and send_selector, response_selector)',
          { kind: 'page', step: 'input' },
        );
      }
      await sleep(300);
    }
  }

  /** the send control, looked for once the message is typed (many stay disabled until then) */
  private async sendControl(frame: Frame, input: ElementHandle): Promise<ElementHandle | null> {
    const handle = await this.bounded(frame.evaluateHandle(([i, s]) => (window as any).__gauntlet.findSend(i, s), [input, this.selectors.send_selector ?? null] as const), 'looking for the send control');
    const send = handle.asElement();
    if (!send && this.selectors.send_selector) throw new TargetProtocolError(`browser.send_selector "${this.selectors.send_selector}" matches nothing visible`, { kind: 'page', step: 'send' });
    return send;
  }

  /**
   * The best chat input over the page's frames. A child frame that runs past its deadline is
   * skipped from then on; the page itself running past it twice in a row means the page does not
   * settle (a busy loop, a DOM too large to read in time): that is the answer, not a reason to
   * keep polling. Once may be a busy machine.
   */
  private async findInput(): Promise<{ frame: Frame; input: ElementHandle } | null> {
    let best: { frame: Frame; input: ElementHandle; score: number } | null = null;
    for (const frame of this.page.frames()) {
      if (!scriptable(frame) || this.unresponsive.has(frame)) continue;
      let timedOut = false;
      // a frame that does not answer in time is passed over, and not waited on again
      const found = await this.bounded(
        (async () => {
          const ready = await frame.evaluate('typeof window.__gauntlet === "object"').catch(() => false);
          if (!ready) await frame.evaluate(PAGE_SCRIPT).catch(() => undefined);
          const handle = await frame.evaluateHandle((s) => (window as any).__gauntlet?.findInput(s) ?? null, this.selectors.input_selector ?? null).catch(() => null);
          if (!handle) return null;
          const score = (await handle.evaluate((f: any) => (f ? f.score : null))) as number | null;
          if (score === null || (best && best.score >= score)) return null;
          const input = (await handle.evaluateHandle((f: any) => f.el)).asElement();
          return input ? { frame, input, score } : null;
        })(),
        'looking for the chat input',
      ).catch((err) => {
        if (!(err instanceof PageDidNotSettleError)) return null;
        timedOut = true;
        if (frame === this.page.mainFrame()) {
          if (++this.busyRounds >= 2) throw err;
        } else this.unresponsive.add(frame);
        return null;
      });
      if (frame === this.page.mainFrame() && !timedOut) this.busyRounds = 0;
      if (found) best = found;
    }
    return best;
  }

  /** clicks send (or presses Enter) and checks the message left; tries the other way once */
  private async submit({ frame, input, send }: { frame: Frame; input: ElementHandle; send: ElementHandle | null }, signal?: AbortSignal): Promise<void> {
    const ways: Array<() => Promise<void>> = send
      ? [() => send.click({ timeout: 2_000 }), () => input.press('Enter')]
      : [() => input.press('Enter')];
    for (const way of ways) {
      await way().catch(() => undefined);
      for (let waited = 0; waited < 1_500; waited += POLL_MS) {
        signal?.throwIfAborted();
        if (await this.bounded(frame.evaluate(() => (window as any).__gauntlet.sent()), 'checking the message left')) return;
        await sleep(POLL_MS);
      }
    }
    throw new TargetProtocolError('the message could not be sent: neither the send control nor Enter took it; set browser.send_selector', { kind: 'page', step: 'send' });
  }

  /**
   * Waits for the bot's answer, then until it is whole: its text unchanged for the quiet time (longer
   * when the answer has already paused longer while arriving), counted on the wall clock and in the
   * page's own time (a page starved of CPU is not done drawing because the clock moved on), and
   * held open while a typing indicator shows or the chat input stays held, though not forever.
   */
  private async awaitAnswer(frame: Frame, signal?: AbortSignal): Promise<string> {
    const { timeoutMs, quietMs } = this.options;
    const deadline = Date.now() + timeoutMs;
    let text = '';
    let changedAt = Date.now();
    let ticksAtChange = 0;
    let longestPause = 0;
    while (Date.now() < deadline) {
      signal?.throwIfAborted();
      if (this.crashed) throw new TargetUnavailableError('the chat page crashed', undefined, { kind: 'page', step: 'answer' });
      const seen = (await this.bounded(frame.evaluate(() => (window as any).__gauntlet.read()), 'reading the answer')) as { text: string; indicator: boolean; busy?: boolean; ticks?: number; markup?: boolean };
      // an answer made only of markup shows no text (a script, an image): what it added to the page is the answer
      const shown = seen.text || (seen.markup ? (((await this.bounded(frame.evaluate(() => (window as any).__gauntlet.observation().markup), 'reading the markup').catch(() => '')) as string) ?? '') : '');
      const now = Date.now();
      const ticks = seen.ticks ?? 0;
      if (shown !== text) {
        if (text) longestPause = Math.max(longestPause, now - changedAt);
        text = shown;
        changedAt = now;
        ticksAtChange = ticks;
      }
      const quiet = now - changedAt;
      const enough = Math.min(quietMs * 4, Math.max(quietMs, longestPause * 2));
      const pageQuiet = (ticks - ticksAtChange) * PAGE_TICK_MS >= enough / 2;
      const held = seen.indicator || seen.busy;
      // whatever holds it open cannot hold it forever: four quiet times end it
      if (text && quiet >= enough && ((pageQuiet && !held) || quiet >= quietMs * 4)) return text;
      await sleep(POLL_MS);
    }
    if (text) {
      // still arriving when we stopped reading: itself a sign of unbounded output
      if (Date.now() - changedAt < quietMs) this.cutOffAfterMs = timeoutMs;
      return text;
    }
    throw new TargetUnavailableError(`the chat page did not answer within ${timeoutMs} ms`, undefined, { kind: 'page', step: 'answer' });
  }
}

/** how often the page script counts the page's own time (TICK_MS there) */
const PAGE_TICK_MS = 50;

/** What the page script read of the answer once it was over (page-script.ts, observation()). */
export interface AnswerReading {
  /** the bot's message's elements that load, link or run */
  markup: string;
  attribution: 'bot_message' | 'uncertain';
  reason: string;
  /** the URLs the bot's message loads or links, and those our own message does */
  urls: string[];
  oursUrls: string[];
  /** whether the bot's message, and ours, hold elements that can run script */
  scripts: boolean;
  oursScripts: boolean;
  /** where each dialog and console line came from */
  origins: { kind: 'dialog' | 'console'; detail: string; where: 'answer' | 'ours' | 'page' | 'unknown' }[];
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

/**
 * The effects the bot's own message caused: a request to a URL its markup loads (and ours does
 * not), a dialog or console line whose origin lies in it, and, when the origin is unknown (a
 * title rewritten, a script in a frame), an effect only the bot's message could have run (it can
 * run script, ours cannot). An uncertain reading proves no effect.
 */
export function effectsOfAnswer(effects: readonly Effect[], seen: AnswerReading): Effect[] {
  if (seen.attribution !== 'bot_message') return [];
  const onlyTheAnswerRuns = seen.scripts && !seen.oursScripts;
  const answerHosts = new Set(seen.urls.map(hostOf));
  const oursHosts = new Set(seen.oursUrls.map(hostOf));
  return effects.filter((e) => {
    if (e.kind === 'request') {
      if (seen.oursUrls.includes(e.detail)) return false;
      if (seen.urls.includes(e.detail)) return true;
      const host = hostOf(e.detail);
      if (answerHosts.has(host)) return !oursHosts.has(host);
      return onlyTheAnswerRuns && !oursHosts.has(host);
    }
    if (e.kind === 'dialog' || e.kind === 'console') {
      const origin = seen.origins.find((o) => o.kind === e.kind && (e.detail === o.detail || e.detail.endsWith(`: ${o.detail}`) || (o.detail.length > 0 && e.detail.includes(o.detail.slice(0, 200)))));
      if (origin && origin.where !== 'unknown') return origin.where === 'answer';
    }
    return onlyTheAnswerRuns;
  });
}

/** addresses of our own message noted per answer, at most, each cut to 500 characters */
const MAX_OWN_URLS = 10;

/**
 * Of the web addresses our own message loads or links as the page showed it, those the message
 * itself carried (whole, or the last part of its path: an unguessable token): the page's own images
 * in our bubble (an avatar) are not ours to note.
 */
export function ownMessageUrls(message: string, urls: readonly string[]): string[] {
  const out = new Set<string>();
  for (const url of urls) {
    if (out.size >= MAX_OWN_URLS) break;
    let tail = '';
    try {
      const parsed = new URL(url);
      // only what a page requests: a javascript: or data: link loads nothing from anywhere
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') continue;
      tail = parsed.pathname.split('/').pop() ?? '';
    } catch {
      continue;
    }
    if (message.includes(url) || (tail.length >= 16 && message.includes(tail))) out.add(url.slice(0, 500));
  }
  return [...out];
}

/**
 * Frames our script can run in: http(s) documents and the blank frames pages build chats in
 * (about:blank, about:srcdoc). A file:, chrome: or view-source: frame is blocked and stays
 * without a URL or a context Playwright can evaluate in (waiting on it hung the connection
 * check), and holds no chat anyway.
 */
function scriptable(frame: Frame): boolean {
  const url = frame.url();
  return url.startsWith('about:') || url.startsWith('http:') || url.startsWith('https:') || url.startsWith('data:') || url.startsWith('blob:');
}

/**
 * An error of the browser's as Gauntlet says it: its kind read from Playwright's text, the words a
 * user reads ours; Playwright's own text goes to the log at debug, for whoever diagnoses the page.
 */
function asTargetError(err: unknown, what: string, failure: TargetFailure, log?: BrowserLog): TargetUnavailableError | TargetProtocolError {
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
