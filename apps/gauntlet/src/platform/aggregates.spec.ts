import { openSqlite, SqliteEventStore, WrongExpectedRevisionError, type EventStore } from '@gauntlet/eventstore';
import { scanQuotaDecider, SpendScanQuota } from '@gauntlet/domain';
import { Aggregates } from './aggregates';

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

describe('Aggregates: writers racing for one stream', () => {
  it('decides again after a conflict, and gives up with the conflict after the attempts it was given', async () => {
    const aggregates = new Aggregates(slowStore());
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => aggregates.handle(scanQuotaDecider, 'quota-a1-2026-11', spend(`s${i}`), context)));
    const refused = results.filter((r) => r.status === 'rejected');
    // each round has one winner: twelve at once outlast four attempts
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedRevisionError);
    const written = (await aggregates.load(scanQuotaDecider, 'quota-a1-2026-11')).state.scan_ids;
    expect(written).toHaveLength(12 - refused.length);
  });

  it('with as many attempts as writers, every one of them gets through, each decided on the count before it', async () => {
    const aggregates = new Aggregates(slowStore());
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => aggregates.handle(scanQuotaDecider, 'quota-a1-2026-11', spend(`s${i}`), context, { attempts: 12 })));
    expect(results.every((r) => r.events.length === 1)).toBe(true);
    expect((await aggregates.load(scanQuotaDecider, 'quota-a1-2026-11')).state.scan_ids.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `s${i}`).sort());
  });
});
