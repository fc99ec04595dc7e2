import { estimateTokens, PageObservation } from '@gauntlet/domain';
import { BudgetReached, SpendMeter } from '../../budget/meter';
import { Conversation, TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { PageDidNotSettleError } from './deadlines';
import type { PageChat } from './page-chat';
import type { BrowserLog } from './page-errors';

/**
 * One conversation with the chat page, as the engine holds it. When the page stops answering in a
 * way a fresh page may mend (our reader failed on it, it crashed, navigated away, or its controls
 * went), the conversation is had again once in a new context (a new visitor: no storage, so a
 * widget that keeps its conversation across page loads starts empty): the messages sent so far
 * are sent again, then this one. Waiting out the target is not recovered: that is the target's.
 * What is sent again is a retry on the scan's budget: each message typed again is counted before
 * it is typed (the messages themselves are counted around the driver, metered-driver.ts).
 */
export class BrowserConversation implements Conversation {
  /** the messages answered in this conversation, to send again on a fresh page */
  private readonly sent: string[] = [];
  private recovered = false;

  constructor(
    private chat: PageChat,
    private readonly open: () => Promise<PageChat>,
    private readonly log: BrowserLog | undefined,
    private readonly meter?: SpendMeter,
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
        for (const earlier of this.sent) await this.sendAgain(earlier, signal, true);
        return this.answered(message, await this.sendAgain(message, signal, false));
      } catch (again) {
        if (signal?.aborted) throw signal.reason;
        if (again instanceof BudgetReached) throw again;
        const second = this.chat.failure(again);
        throw new TargetUnavailableError(`${failed.message}; a fresh page did not answer either (${second.message.replace(/^the chat page /, '')})`, again, second.failure ?? failed.failure);
      }
    }
  }

  /**
   * a message typed again on the fresh page, counted as a retry first; `answerCounted`: its answer
   * counts too (an earlier message's), else it is this message's, counted once around the driver
   */
  private async sendAgain(message: string, signal: AbortSignal | undefined, answerCounted: boolean): Promise<string> {
    const outgoing = this.meter?.send(estimateTokens(message), true);
    try {
      const answer = await this.chat.exchange(message, signal);
      if (answerCounted) outgoing?.received(estimateTokens(answer));
      else outgoing?.failed();
      return answer;
    } catch (e) {
      outgoing?.failed();
      throw e;
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
 * page, a context destroyed by the page navigating), or the chat's controls gone. Not a target
 * that does not answer in time, a page that never settles, or one refused or answering an HTTP error.
 */
function recoverable(err: unknown): boolean {
  if (err instanceof PageDidNotSettleError) return false;
  if (err instanceof TargetUnavailableError || err instanceof TargetProtocolError) {
    const failure = err.failure;
    return failure?.kind === 'page' && (failure.step === 'input' || failure.step === 'send');
  }
  return true;
}
