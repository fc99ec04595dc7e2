import { answerDeadline } from './answer-deadline';

describe('answerDeadline', () => {
  it('is the base until the target has answered, and for a target that answers well within it', () => {
    expect(answerDeadline(60_000, null, 4)).toBe(60_000);
    expect(answerDeadline(60_000, 800, 16)).toBe(60_000);
  });

  it('gives a slow target its answer time for each conversation queued at it, and three more', () => {
    // a model taking 40 s an answer, four conversations in flight: the last may wait for all four
    expect(answerDeadline(60_000, 40_000, 4)).toBe(280_000);
    expect(answerDeadline(60_000, 40_000, 0)).toBe(160_000);
  });

  it('never waits more than ten times the base', () => {
    expect(answerDeadline(60_000, 300_000, 8)).toBe(600_000);
    expect(answerDeadline(1_000, Infinity, 1)).toBe(1_000);
  });
});
