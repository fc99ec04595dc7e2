export interface ActiveSchedule {
  id: string;
  account_id: string;
}

/**
 * The order one scheduler pass looks at schedules in: accounts take turns, one schedule each per
 * turn, so an account with a thousand schedules is interleaved with one that has two instead of
 * going first. Each account gets at most `perAccount` turns; its list starts at its cursor (where
 * the previous pass stopped, kept in `cursors`), and the account that goes first rotates with
 * `pass`: whatever a pass had no room or time for is first in line the next time.
 */
export function passOrder(active: ActiveSchedule[], perAccount: number, cursors: Map<string, number>, pass: number): ActiveSchedule[] {
  const byAccount = new Map<string, ActiveSchedule[]>();
  for (const s of active) (byAccount.get(s.account_id) ?? byAccount.set(s.account_id, []).get(s.account_id)!).push(s);
  const accounts = [...byAccount.keys()];
  const first = accounts.length ? pass % accounts.length : 0;
  const lists = [...accounts.slice(first), ...accounts.slice(0, first)].map((account) => {
    const list = byAccount.get(account)!;
    const start = (cursors.get(account) ?? 0) % list.length;
    cursors.set(account, start);
    return [...list.slice(start), ...list.slice(0, start)].slice(0, perAccount);
  });
  // accounts with no active schedule left keep no cursor
  for (const account of [...cursors.keys()]) if (!byAccount.has(account)) cursors.delete(account);
  const order: ActiveSchedule[] = [];
  for (let turn = 0; turn < perAccount; turn++) for (const list of lists) if (turn < list.length) order.push(list[turn]);
  return order;
}
