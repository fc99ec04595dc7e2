import { passOrder } from './pass-order';

const schedules = (account: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${account}${i + 1}`, account_id: account }));
const ids = (order: { id: string }[]) => order.map((s) => s.id);

describe('the order of a scheduler pass', () => {
  it('gives accounts turns, one schedule each, within each account\'s share', () => {
    const active = [...schedules('a', 100), ...schedules('b', 2), ...schedules('c', 1)];
    expect(ids(passOrder(active, 4, new Map(), 0))).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
  });

  it('starts each account where its previous pass stopped, and rotates which account goes first', () => {
    const active = [...schedules('a', 10), ...schedules('b', 3)];
    const cursors = new Map<string, number>();
    const first = passOrder(active, 2, cursors, 0);
    expect(ids(first)).toEqual(['a1', 'b1', 'a2', 'b2']);
    // the scheduler moves an account's cursor on for each schedule it looked at
    for (const s of first) cursors.set(s.account_id, (cursors.get(s.account_id) ?? 0) + 1);
    expect(ids(passOrder(active, 2, cursors, 1))).toEqual(['b3', 'a3', 'b1', 'a4']);
  });

  it('holds every schedule of every account across enough passes (nobody starves)', () => {
    const active = [...schedules('a', 7), ...schedules('b', 5), ...schedules('c', 1)];
    const cursors = new Map<string, number>();
    const seen = new Set<string>();
    for (let pass = 0; pass < 4; pass++) {
      for (const s of passOrder(active, 2, cursors, pass)) {
        seen.add(s.id);
        cursors.set(s.account_id, (cursors.get(s.account_id) ?? 0) + 1);
      }
    }
    expect(seen.size).toBe(13);
  });

  it('forgets the cursor of an account with no active schedule left', () => {
    const cursors = new Map([['gone', 3]]);
    passOrder(schedules('a', 1), 5, cursors, 0);
    expect([...cursors.keys()]).toEqual(['a']);
  });
});
