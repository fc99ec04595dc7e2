import { PageDidNotSettleError, within } from './deadlines';

describe('within: every browser operation has a deadline', () => {
  it('given an operation that never settles, when its deadline passes, then it fails as a page that did not settle', async () => {
    const never = new Promise<never>(() => undefined);
    const err = await within(never, 30, 'reading the answer').then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(PageDidNotSettleError);
    expect((err as PageDidNotSettleError).failure).toEqual({ kind: 'page', step: 'settle' });
    expect((err as Error).message).toBe('the page did not settle: reading the answer took longer than 30 ms');
  });

  it('given an operation that answers in time, then its answer or its own failure comes through', async () => {
    await expect(within(Promise.resolve(42), 1_000, 'x')).resolves.toBe(42);
    await expect(within(Promise.reject(new Error('closed')), 1_000, 'x')).rejects.toThrow('closed');
  });

  it('given the loser rejects after the deadline, then nothing is left unhandled', async () => {
    const late = new Promise((_, reject) => setTimeout(() => reject(new Error('context closed')), 20));
    await expect(within(late, 5, 'x')).rejects.toBeInstanceOf(PageDidNotSettleError);
    await new Promise((r) => setTimeout(r, 40)); // an unhandled rejection would fail the run here
  });
});
