import { SqliteBudgetStore } from '@gauntlet/auth';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestSpender, setRateLimitHeaders, SharedThrottlerStorage } from './rate-limit';

/** The one way a request spends the per-IP budget and says so: the RateLimitGuard and the status fast lane both go through it. */
describe('the per-IP budget', () => {
  let dir: string;
  let store: SqliteBudgetStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rate-limit-'));
    store = new SqliteBudgetStore(join(dir, 'limits.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('given a budget of 2 a minute, when one client sends 3 requests, then the third is blocked until the window turns; another client is not', async () => {
    const spend = requestSpender(new SharedThrottlerStorage(store), 2);
    expect(await spend('203.0.113.7')).toMatchObject({ blocked: false, limit: 2, remaining: 1 });
    expect(await spend('203.0.113.7')).toMatchObject({ blocked: false, limit: 2, remaining: 0 });
    const third = await spend('203.0.113.7');
    expect(third.blocked).toBe(true);
    expect(third.retryAfterSeconds).toBeGreaterThan(0);
    expect(third.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(await spend('198.51.100.1')).toMatchObject({ blocked: false, remaining: 1 });
  });

  it('given an IPv6 client, when it rotates addresses inside its /64, then it spends one budget', async () => {
    const spend = requestSpender(new SharedThrottlerStorage(store), 2);
    await spend('2001:db8:1:2::1');
    expect(await spend('2001:db8:1:2::ffff')).toMatchObject({ remaining: 0 });
  });

  it('given what a request spent, then the reply names the limit, what is left and the seconds to the reset', async () => {
    const headers: [string, number][] = [];
    setRateLimitHeaders({ header: (name, value) => headers.push([name, value]) }, { blocked: false, limit: 120, remaining: 7, resetSeconds: 42, retryAfterSeconds: 0 });
    expect(headers).toEqual([['X-RateLimit-Limit', 120], ['X-RateLimit-Remaining', 7], ['X-RateLimit-Reset', 42]]);
  });
});
