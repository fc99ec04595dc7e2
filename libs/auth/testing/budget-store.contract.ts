import { BudgetStore, windowAt } from '../src/budgets/budget-store';
import { LeasedBudget } from '../src/budgets/leased-budget';

/**
 * What every BudgetStore adapter must do, run against each. `open` gives
 * two handles on the same storage, as two processes have.
 */
export function budgetStoreContract(name: string, open: () => Promise<[BudgetStore, BudgetStore]>) {
  describe(`BudgetStore contract: ${name}`, () => {
    // a networked store on a busy 2-core machine (FerretDB) can take seconds for a race of 150 takes: bounded, but wider
    jest.setTimeout(30_000);
    let a: BudgetStore;
    let b: BudgetStore;
    let n = 0;
    const key = () => `k${Date.now()}-${n++}`;
    const window = windowAt(Date.now(), 60_000);
    beforeEach(async () => {
      [a, b] = await open();
    });
    afterEach(async () => {
      await a.close();
      await b.close();
    });

    it('grants up to the limit and no further, and says how much is spent', async () => {
      const k = key();
      expect(await a.take(k, window, 4, 10)).toEqual({ granted: 4, spent: 4 });
      expect(await b.take(k, window, 4, 10)).toEqual({ granted: 4, spent: 8 });
      expect(await a.take(k, window, 4, 10)).toEqual({ granted: 2, spent: 10 });
      expect(await b.take(k, window, 1, 10)).toEqual({ granted: 0, spent: 10 });
    });

    it('never grants more than the limit to takes racing from two handles', async () => {
      const k = key();
      const takes = await Promise.all(Array.from({ length: 150 }, (_, i) => (i % 2 ? a : b).take(k, window, 1 + (i % 3), 50)));
      expect(takes.reduce((sum, t) => sum + t.granted, 0)).toBe(50);
    }, 30_000); // 150 round trips racing on a shared server: jest's 5 s default is too short on a busy machine

    it('counts each key and each window apart', async () => {
      const k = key();
      const next = { start: window.end, end: window.end + 60_000 };
      expect((await a.take(k, window, 3, 3)).granted).toBe(3);
      expect((await a.take(`${k}-other`, window, 3, 3)).granted).toBe(3);
      expect((await b.take(k, next, 3, 3)).granted).toBe(3);
      expect((await b.take(k, window, 1, 3)).granted).toBe(0);
    });

    it('takes back units given back, and never counts below zero', async () => {
      const k = key();
      await a.take(k, window, 2, 2);
      await b.giveBack(k, window, 1);
      expect(await a.take(k, window, 5, 2)).toEqual({ granted: 1, spent: 2 });
      await b.giveBack(k, window, 5);
      expect((await a.take(k, window, 1, 2)).spent).toBeGreaterThanOrEqual(1);
    });

    it('forgets windows that have ended, and only those', async () => {
      const k = key();
      const old = { start: window.start - 120_000, end: window.start - 60_000 };
      await a.take(k, old, 1, 1);
      await a.take(k, window, 1, 1);
      await b.sweep(window.start);
      expect((await a.take(k, old, 1, 1)).granted).toBe(1);
      expect((await a.take(k, window, 1, 1)).granted).toBe(0);
    });

    it('lets leased budgets on two handles allow one limit in all, never more', async () => {
      const k = key();
      const now = () => window.start + 1000;
      const [p1, p2] = [new LeasedBudget(a, 120, 60_000, { now }), new LeasedBudget(b, 120, 60_000, { now })];
      const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? p1 : p2).spend(k)));
      expect(answers.filter((x) => x.allowed).length).toBe(120);
      // a third process (a restart) finds nothing left
      expect((await new LeasedBudget(a, 120, 60_000, { now }).spend(k)).allowed).toBe(false);
    });
  });
}
