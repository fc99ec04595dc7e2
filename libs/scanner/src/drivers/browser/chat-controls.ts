import { setTimeout as sleep } from 'node:timers/promises';
import type { ElementHandle, Frame, Page } from 'playwright';
import { TargetProtocolError } from '../../chat-driver';
import { PageDidNotSettleError } from './deadlines';
import type { FoundInput } from './page/api';
import { pageScript } from './page-script';

/** What the target configured where detection is not enough (`browser` on the target). */
export interface BrowserSelectorsConfig {
  input_selector?: string;
  send_selector?: string;
  response_selector?: string;
}

/** a bounded browser operation (the page chat's deadline) */
export type Bounded = <T>(op: Promise<T>, what: string) => Promise<T>;

export const POLL_MS = 150;

/**
 * Frames our script can run in: http(s) documents and the blank frames pages build chats in
 * (about:blank, about:srcdoc). A file:, chrome: or view-source: frame is blocked and stays
 * without a URL or a context Playwright can evaluate in (waiting on it hung the connection
 * check), and holds no chat anyway.
 */
export function scriptable(frame: Frame): boolean {
  const url = frame.url();
  return url.startsWith('about:') || url.startsWith('http:') || url.startsWith('https:') || url.startsWith('data:') || url.startsWith('blob:');
}

/**
 * A chat's controls on one page: the input (in whichever frame holds the best-looking one, a closed
 * widget opened by its launcher), the send control, and sending (a click, else Enter) until the
 * message has left.
 */
export class ChatControls {
  /** frames that let an evaluation run past its deadline once: not waited on again */
  private readonly unresponsive = new WeakSet<Frame>();
  /** the page itself ran past the deadline this many times in a row */
  private busyRounds = 0;

  constructor(
    private readonly page: Page,
    private readonly selectors: BrowserSelectorsConfig,
    private readonly bounded: Bounded,
  ) {}

  /** finds the chat input in whichever frame holds the best-looking one, opening a closed widget */
  async input(waitMs: number): Promise<{ frame: Frame; input: ElementHandle }> {
    const deadline = Date.now() + waitMs;
    let launcherClicks = 0;
    for (let round = 0; ; round++) {
      const found = await this.bestInput();
      if (found) return found;
      // a closed widget shows only its launcher bubble: open it once or twice
      if (round >= 2 && launcherClicks < 2 && !this.selectors.input_selector) {
        for (const frame of this.page.frames()) {
          if (!scriptable(frame)) continue;
          const launcher = (await this.bounded(frame.evaluateHandle(() => window.__gauntlet?.findLauncher() ?? null), 'looking for a chat launcher').catch(() => null))?.asElement();
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
  async send(frame: Frame, input: ElementHandle): Promise<ElementHandle | null> {
    const handle = await this.bounded(frame.evaluateHandle(([i, s]) => window.__gauntlet!.findSend(i as Element, s), [input, this.selectors.send_selector ?? null] as const), 'looking for the send control');
    const send = handle.asElement();
    if (!send && this.selectors.send_selector) throw new TargetProtocolError(`browser.send_selector "${this.selectors.send_selector}" matches nothing visible`, { kind: 'page', step: 'send' });
    return send;
  }

  /** clicks send (or presses Enter) and checks the message left; tries the other way once */
  async submit({ frame, input, send }: { frame: Frame; input: ElementHandle; send: ElementHandle | null }, signal?: AbortSignal): Promise<void> {
    const ways: Array<() => Promise<void>> = send
      ? [() => send.click({ timeout: 2_000 }), () => input.press('Enter')]
      : [() => input.press('Enter')];
    for (const way of ways) {
      await way().catch(() => undefined);
      for (let waited = 0; waited < 1_500; waited += POLL_MS) {
        signal?.throwIfAborted();
        if (await this.bounded(frame.evaluate(() => window.__gauntlet!.sent()), 'checking the message left')) return;
        await sleep(POLL_MS);
      }
    }
    throw new TargetProtocolError('the message could not be sent: neither the send control nor Enter took it; set browser.send_selector', { kind: 'page', step: 'send' });
  }

  /**
   * The best chat input over the page's frames. A child frame that runs past its deadline is
   * skipped from then on; the page itself running past it twice in a row means the page does not
   * settle (a busy loop, a DOM too large to read in time): that is the answer, not a reason to
   * keep polling. Once may be a busy machine.
   */
  private async bestInput(): Promise<{ frame: Frame; input: ElementHandle } | null> {
    let best: { frame: Frame; input: ElementHandle; score: number } | null = null;
    for (const frame of this.page.frames()) {
      if (!scriptable(frame) || this.unresponsive.has(frame)) continue;
      let timedOut = false;
      // a frame that does not answer in time is passed over, and not waited on again
      const found = await this.bounded(
        (async () => {
          const ready = await frame.evaluate('typeof window.__gauntlet === "object"').catch(() => false);
          if (!ready) await frame.evaluate(pageScript()).catch(() => undefined);
          const handle = await frame.evaluateHandle((s) => window.__gauntlet?.findInput(s) ?? null, this.selectors.input_selector ?? null).catch(() => null);
          if (!handle) return null;
          const score = await handle.evaluate((f: FoundInput | null) => (f ? f.score : null));
          if (score === null || (best && best.score >= score)) return null;
          const input = (await handle.evaluateHandle((f: FoundInput | null) => f!.el)).asElement();
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
}
