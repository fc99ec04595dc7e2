import { DomainError, quotaMonth, scanDecider, scanQuotaDecider, streams } from '@gauntlet/domain';
import { openSqlite, SqliteEventStore, type EventStore } from '@gauntlet/eventstore';
import type { Metrics } from '../../platform/metrics';
import { WritePath } from '../../platform/write-path';
import { requestScan, type ScanRequest } from './request-scan';

const now = '2026-11-25T10:00:00.000Z';
const context = { actor: 'account:a1', correlationId: 'c1' };
const config = { scanQuota: { free: 2, pro: 500, enterprise: null } };
const ask = (r: Partial<ScanRequest> = {}): ScanRequest => ({ account_id: 'a1', plan: 'free', target_id: 't1', profile: 'quick', origin: 'api', fail_threshold: null, ...r });

async function given(store: EventStore, target: { account_id: string; deleted?: boolean }) {
  const at = { metadata: { actor: 'test', correlationId: 'c0', occurredAt: now, schemaVersion: 1 } };
  await store.append(streams.target('t1'), [{ type: 'TargetRegistered', data: { target_id: 't1', account_id: target.account_id, registered_at: now, name: 'lab', kind: 'api' }, ...at }], { expectedRevision: 'no_stream' });
  if (target.deleted) await store.append(streams.target('t1'), [{ type: 'TargetDeleted', data: { target_id: 't1', account_id: target.account_id, deleted_at: now }, ...at }], { expectedRevision: 0 });
}

describe('a scan request: decided once, its quota spent before its scan is written', () => {
  let store: EventStore;
  let writePath: WritePath;
  let conflicts: number;
  const spent = async () => (await writePath.state(scanQuotaDecider, streams.scanQuota('a1', quotaMonth(now)))).scan_ids;

  beforeEach(() => {
    store = new SqliteEventStore(openSqlite(':memory:'));
    conflicts = 0;
    const metrics = { appendConflicts: { inc: () => conflicts++ }, eventsAppended: { inc: () => undefined } } as unknown as Metrics;
    writePath = new WritePath(store, { waitFor: async () => undefined }, metrics);
  });

  it('writes the scan and spends one scan of the month', async () => {
    await given(store, { account_id: 'a1' });
    const scan = await requestScan(writePath, config, ask(), now, context);
    expect((await writePath.state(scanDecider, streams.scan(scan.id))).status).toBe('pending');
    expect(await spent()).toEqual([scan.id]);
  });

  it("someone else's target, or an absent one, is not found and spends nothing", async () => {
    await given(store, { account_id: 'a2' });
    await expect(requestScan(writePath, config, ask(), now, context)).rejects.toMatchObject({ code: 'not_found' });
    await expect(requestScan(writePath, config, ask({ target_id: 'absent' }), now, context)).rejects.toMatchObject({ code: 'not_found' });
    expect(await spent()).toEqual([]);
  });

  it('a deleted target is not found and spends nothing', async () => {
    await given(store, { account_id: 'a1', deleted: true });
    await expect(requestScan(writePath, config, ask(), now, context)).rejects.toMatchObject({ code: 'not_found' });
    expect(await spent()).toEqual([]);
  });

  it('over the plan: the quota refuses (limit_exceeded) and the scan stream stays unwritten', async () => {
    await given(store, { account_id: 'a1' });
    await requestScan(writePath, config, ask(), now, context);
    await requestScan(writePath, config, ask(), now, context);
    const refused = await requestScan(writePath, config, ask({ scan_id: 'refused-scan' }), now, context).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'limit_exceeded', broken: { rule: 'scan-quota' } });
    expect(await store.readStream(streams.scan('refused-scan'))).toEqual([]);
  });

  it('the same scan asked for twice at once (a schedule firing twice) is one scan, spent once', async () => {
    await given(store, { account_id: 'a1' });
    const twice = await Promise.all([requestScan(writePath, config, ask({ scan_id: 's1' }), now, context), requestScan(writePath, config, ask({ scan_id: 's1' }), now, context)]);
    expect(twice.map((s) => s.id)).toEqual(['s1', 's1']);
    expect(conflicts).toBeGreaterThan(0); // the two did race: the loser decided again on what the winner wrote
    expect(await store.readStream(streams.scan('s1'))).toHaveLength(1);
    expect(await spent()).toEqual(['s1']);
  });

  it('parallel requests never pass the plan together', async () => {
    await given(store, { account_id: 'a1' });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => requestScan(writePath, config, ask(), now, context)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(await spent()).toHaveLength(2);
  });

  it('an unlimited plan keeps no count', async () => {
    await given(store, { account_id: 'a1' });
    await requestScan(writePath, config, ask({ plan: 'enterprise' }), now, context);
    expect(await spent()).toEqual([]);
  });
});
