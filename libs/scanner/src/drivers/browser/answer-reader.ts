import { setTimeout as sleep } from 'node:timers/promises';
import type { Frame } from 'playwright';
import { TargetUnavailableError } from '../../chat-driver';
import type { Bounded } from './chat-controls';
import { POLL_MS } from './chat-controls';
import { AnswerSoFar, TICK_MS } from './page/api';

/** How long an answer is waited for, and when it is over. */
export interface AnswerWait {
  /** longest wait for one answer */
  timeoutMs: number;
  /** a streamed answer is over when its text has not changed for this long */
  quietMs: number;
}

/** The answer as read, and how long it had been arriving when reading stopped if it was cut off. */
export interface AnswerRead {
  text: string;
  cutOffAfterMs: number | null;
}

/**
 * Waits for the bot's answer, then until it is whole: its text unchanged for the quiet time (longer
 * when the answer has already paused longer while arriving), counted on the wall clock and in the
 * page's own time (a page starved of CPU is not done drawing because the clock moved on), and held
 * open while a typing indicator shows or the chat input stays held, though not past four quiet times.
 */
export async function awaitAnswer(frame: Frame, { timeoutMs, quietMs }: AnswerWait, bounded: Bounded, crashed: () => boolean, signal?: AbortSignal): Promise<AnswerRead> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  let changedAt = Date.now();
  let ticksAtChange = 0;
  let longestPause = 0;
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    if (crashed()) throw new TargetUnavailableError('the chat page crashed', undefined, { kind: 'page', step: 'answer' });
    const seen: AnswerSoFar = await bounded(frame.evaluate(() => window.__gauntlet!.read()), 'reading the answer');
    // an answer made only of markup shows no text (a script, an image): what it added to the page is the answer
    const shown = seen.text || (seen.markup ? ((await bounded(frame.evaluate(() => window.__gauntlet!.observation().markup), 'reading the markup').catch(() => '')) ?? '') : '');
    const now = Date.now();
    if (shown !== text) {
      if (text) longestPause = Math.max(longestPause, now - changedAt);
      text = shown;
      changedAt = now;
      ticksAtChange = seen.ticks;
    }
    const quiet = now - changedAt;
    const enough = Math.min(quietMs * 4, Math.max(quietMs, longestPause * 2));
    const pageQuiet = (seen.ticks - ticksAtChange) * TICK_MS >= enough / 2;
    const held = seen.indicator || seen.busy;
    // whatever holds it open cannot hold it forever: four quiet times end it
    if (text && quiet >= enough && ((pageQuiet && !held) || quiet >= quietMs * 4)) return { text, cutOffAfterMs: null };
    await sleep(POLL_MS);
  }
  // not whole when reading stopped (a whole answer ends the loop by four quiet times at most): still
  // arriving, itself a sign of unbounded output, however long a starved page paused in drawing it
  if (text) return { text, cutOffAfterMs: timeoutMs };
  throw new TargetUnavailableError(`the chat page did not answer within ${timeoutMs} ms`, undefined, { kind: 'page', step: 'answer' });
}
