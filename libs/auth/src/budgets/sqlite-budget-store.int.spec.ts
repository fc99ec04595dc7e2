import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { budgetStoreContract } from '@gauntlet/auth/testing';
import { SqliteBudgetStore } from './sqlite-budget-store';

const dir = mkdtempSync(join(tmpdir(), 'gauntlet-budgets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// two connections on one file: what two processes sharing DATA_DIR have
budgetStoreContract('SQLite file shared by two connections', async () => {
  const file = join(dir, 'limits.db');
  return [new SqliteBudgetStore(file), new SqliteBudgetStore(file)];
});
