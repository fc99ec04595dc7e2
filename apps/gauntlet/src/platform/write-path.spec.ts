import { openSqlite, SqliteEventStore, WrongExpectedRevisionError, type EventStore } from '@gauntlet/eventstore';
import { scanQuotaDecider, SpendScanQuota } from '@gauntlet/domain';
import { WritePath } from './write-path';

/** the embedded store, with a read that takes a little while, as a networked store's does: writers interleave */
function slowStore(): EventStore {
  const store = new SqliteEventStore(openSqlite(':memory:'));
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'readStream') return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<EventStore['readStream']>) => {
        const events = await target.readStream(...args);
        await new Promise((r) => setTimeout(r, 5));
        return events;
      };
    },
  });
}

const spend = (scan_id: string): SpendScanQuota => ({ type: 'SpendScanQuota', account_id: 'a1', month: '2026-11', scan_id, plan: 'pro', allowed: 500, now: '2026-11-25T10:00:00.000Z' });
const context = { actor: 'account:a1', correlationId: 'c1' };
const noReadModels = { waitFor: async () => undefined };

describe('WritePath: writers racing for one stream', () => {
  it('decides again after a conflict, and gives up with the conflict after the attempts it was given', async () => {
    const writePath = new WritePath(slowStore(), noReadModels);
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => writePath.decide(scanQuotaDecider, 'quota-a1-2026-11', spend(`s${i}`), context)));
    const refused = results.filter((r) => r.status === 'rejected');
    // each round has one winner: twelve at once outlast four attempts
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    const written = (await writePath.load(scanQuotaDecider, 'quota-a1-2026-11')).state.scan_ids;
    expect(written).toHaveLength(12 - refused.length);
  });

  it('with as many attempts as writers, every one of them gets through, each decided on the count before it', async () => {
    const writePath = new WritePath(slowStore(), noReadModels);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => writePath.decide(scanQuotaDecider, 'quota-a1-2026-11', spend(`s${i}`), context, { attempts: 12 })));
    expect(results.every((r) => r.events.length === 1)).toBe(true);
    expect((await writePath.load(scanQuotaDecider, 'quota-a1-2026-11')).state.scan_ids.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `s${i}`).sort());
  });
});

describe('WritePath: a write the decision depends on (beforeAppend)', () => {
  const spendA = spend('a');

  it('runs once the events are decided, before they are appended', async () => {
    const store = new SqliteEventStore(openSqlite(':memory:'));
    const writePath = new WritePath(store, noReadModels);
    const seen: unknown[] = [];
    await writePath.decide(scanQuotaDecider, 'quota-a1-2026-11', spendA, context, { beforeAppend: async (events) => seen.push(events.map((e) => e.type), (await store.readStream('quota-a1-2026-11')).length) });
    expect(seen).toEqual([['ScanQuotaSpent'], 0]);
  });

  it('a decision that changes nothing runs nothing', async () => {
    const writePath = new WritePath(new SqliteEventStore(openSqlite(':memory:')), noReadModels);
    await writePath.decide(scanQuotaDecider, 'quota-a1-2026-11', spendA, context);
    const before = jest.fn(async () => undefined);
    const again = await writePath.decide(scanQuotaDecider, 'quota-a1-2026-11', spendA, context, { beforeAppend: before });
    expect(again.events).toEqual([]);
    expect(before).not.toHaveBeenCalled();
  });

  it('when it throws, nothing is appended', async () => {
    const store = new SqliteEventStore(openSqlite(':memory:'));
    const writePath = new WritePath(store, noReadModels);
    await expect(writePath.decide(scanQuotaDecider, 'quota-a1-2026-11', spendA, context, { beforeAppend: async () => { throw new Error('refused'); } })).rejects.toThrow('refused');
    expect(await store.readStream('quota-a1-2026-11')).toEqual([]);
  });
});

describe('WritePath: read-your-writes', () => {
  it('commit returns once the read models include the change; decide does not wait', async () => {
    const waited: unknown[] = [];
    const writePath = new WritePath(new SqliteEventStore(openSqlite(':memory:')), { waitFor: async (position) => waited.push(position) });
    const committed = await writePath.commit(scanQuotaDecider, 'quota-a1-2026-11', spend('a'), context);
    expect(waited).toEqual([committed.position]);
    await writePath.decide(scanQuotaDecider, 'quota-a1-2026-11', spend('b'), context);
    await writePath.commit(scanQuotaDecider, 'quota-a1-2026-11', spend('b'), context); // changes nothing: nothing to wait for
    expect(waited).toHaveLength(1);
  });
});
