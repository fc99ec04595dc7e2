import type { Frame } from 'playwright';
import { awaitAnswer } from './answer-reader';
import type { AnswerSoFar } from './page/api';

/** A page whose answer is the script's text at each moment since the send (wall clock), its own time running alongside. */
function scriptedPage(script: (elapsedMs: number) => Partial<AnswerSoFar>): Frame {
  const start = Date.now();
  return {
    evaluate: async () => {
      const elapsed = Date.now() - start;
      return { text: '', indicator: false, busy: false, ticks: Math.floor(elapsed / 50), ...script(elapsed) };
    },
  } as unknown as Frame;
}
const unbounded = <T>(op: Promise<T>) => op;
const read = (page: Frame, timeoutMs: number, quietMs = 200) => awaitAnswer(page, { timeoutMs, quietMs }, unbounded, () => false);

describe('awaitAnswer', () => {
  it('given an answer that stops changing, when read: the whole text, not cut off', async () => {
    const page = scriptedPage((ms) => ({ text: ms < 300 ? 'Hel' : 'Hello there.' }));
    await expect(read(page, 5_000)).resolves.toEqual({ text: 'Hello there.', cutOffAfterMs: null });
  });

  it('given an answer still growing at the deadline, when read: what was there, cut off after the wait', async () => {
    const page = scriptedPage((ms) => ({ text: 'parcel '.repeat(1 + Math.floor(ms / 100)) }));
    const answer = await read(page, 1_500);
    expect(answer.cutOffAfterMs).toBe(1_500);
    expect(answer.text).toMatch(/^(parcel )+$/);
  });

  it('given an answer still growing that paused longer than the quiet time just before the deadline (a page starved of CPU), when read: still cut off', async () => {
    // typing shown throughout, the text growing in bursts 2.3 quiet times apart: never whole by the
    // reader's measure, yet it last changed more than a quiet time before the deadline
    const page = scriptedPage((ms) => ({ text: 'parcel '.repeat(1 + Math.floor(ms / 700)), indicator: true }));
    const answer = await read(page, 2_450, 300);
    expect(answer.cutOffAfterMs).toBe(2_450);
  });

  it('given a page that never answers, when read: the target is unavailable', async () => {
    await expect(read(scriptedPage(() => ({})), 600)).rejects.toThrow(/did not answer within 600 ms/);
  });
});
