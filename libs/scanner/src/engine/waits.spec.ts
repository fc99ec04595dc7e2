import { pool } from './waits';

/** work that finishes when the test says, recording how many ran at once */
function gate() {
  const waiting: Array<() => void> = [];
  let running = 0;
  const seen: number[] = [];
  return {
    work: () =>
      new Promise<void>((resolve) => {
        running++;
        seen.push(running);
        waiting.push(() => {
          running--;
          resolve();
        });
      }),
    release: async (n = 1) => {
      for (let i = 0; i < n; i++) waiting.shift()?.();
      await new Promise((r) => setImmediate(r));
    },
    get running() {
      return running;
    },
    seen,
  };
}

describe('pool', () => {
  it('runs `width` items at once and asks the width again as each finishes, growing and shrinking with it', async () => {
    const g = gate();
    let width = 2;
    const done = pool(Array.from({ length: 12 }, (_, i) => i), () => width, () => false, g.work);
    await g.release(0);
    expect(g.running).toBe(2);
    width = 5; // the driver learnt the target takes more
    await g.release(1);
    expect(g.running).toBe(5);
    width = 1; // and then that it takes fewer: nothing new starts until only one runs
    await g.release(3);
    expect(g.running).toBe(2);
    await g.release(1);
    expect(g.running).toBe(1);
    await g.release(1);
    expect(g.running).toBe(1);
    width = 3;
    await g.release(1);
    expect(g.running).toBe(3);
    // bounded: 12 items at most to finish
    for (let i = 0; i < 12 && g.running; i++) await g.release(g.running);
    await done;
    expect(g.seen).toHaveLength(12);
    expect(Math.max(...g.seen)).toBe(5);
  });

  it('starts nothing more once stopped, and settles when what runs has finished', async () => {
    const g = gate();
    let stopped = false;
    const done = pool([1, 2, 3, 4], 2, () => stopped, g.work);
    stopped = true;
    await g.release(2);
    await done;
    expect(g.seen).toHaveLength(2);
  });

  it('takes work from a source as room frees up: what it has none of now is asked again when one finishes, and it ends when the source says none with nothing under way', async () => {
    const g = gate();
    // a source that has one item per item finished, up to 6: like attempts built on what came back
    let given = 0;
    let finished = 0;
    const source = () => (given < Math.min(6, 2 + finished) ? given++ : null);
    let settled = false;
    const done = pool(source, 4, () => false, () => g.work().then(() => void finished++)).then(() => (settled = true));
    await g.release(0);
    expect(g.running).toBe(2);
    await g.release(1);
    expect(g.running).toBe(2);
    for (let i = 0; i < 6 && g.running; i++) await g.release(1);
    await done;
    expect([settled, given, g.seen.length]).toEqual([true, 6, 6]);
  });
});
