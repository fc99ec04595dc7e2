import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteBudgetStore } from '@gauntlet/auth';
import { ProblemException } from '../../http/problem';
import { CheckGate } from './check-gate';

describe('CheckGate on the shared budget store', () => {
  let dir: string;
  let store: SqliteBudgetStore;
  let now = Date.UTC(2026, 10, 26, 10, 0, 0);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'check-gate-'));
    store = new SqliteBudgetStore(join(dir, 'limits.db'));
    now = Date.UTC(2026, 10, 26, 10, 0, 0);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const refusal = (p: Promise<unknown>) => p.then(() => null, (err: ProblemException) => ({ status: err.getStatus(), detail: err.message, retryAfter: err.extras.headers?.['Retry-After'] }));

  it('given two checks running for an account, when a third is asked for, then 429 until one answers', async () => {
    const gate = new CheckGate(store, { inFlight: 2, perHour: 100 }, () => now);
    const a = await gate.admit('acct-1');
    await gate.admit('acct-1');
    expect(await refusal(gate.admit('acct-1'))).toMatchObject({ status: 429, detail: expect.stringMatching(/2 connection checks at once/), retryAfter: '10' });
    // another account is not held up
    await expect(gate.admit('acct-2')).resolves.toBeDefined();
    await a.release();
    await a.release(); // twice is once
    await expect(gate.admit('acct-1')).resolves.toBeDefined();
    expect(await refusal(gate.admit('acct-1'))).toMatchObject({ status: 429 });
  });

  it('given the hourly budget spent, when another check is asked for, then 429 with the wait, and its in-flight unit is not kept', async () => {
    const gate = new CheckGate(store, { inFlight: 1, perHour: 3 }, () => now);
    for (let i = 0; i < 3; i++) await (await gate.admit('acct-1')).release();
    const refused = await refusal(gate.admit('acct-1'));
    expect(refused).toMatchObject({ status: 429, detail: expect.stringMatching(/3 connection checks per hour/) });
    expect(Number(refused!.retryAfter)).toBe(3600);
    // the next hour has a fresh budget, and the refused check held no slot
    now += 3_600_000;
    await expect(gate.admit('acct-1')).resolves.toBeDefined();
  });
});
