import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { REGENERATE } from './enums';

const ROOT = resolve(__dirname, '../../..');
const COMMITTED = join(ROOT, 'apps/dashboard/src/api');

// the committed client is what the dashboard type-checks and bundles against: it must be the service's
// own document. The generator runs as `npm run dashboard:api` runs it, from the dist/ jest's setup built.
describe('the dashboard API client committed in apps/dashboard/src/api', () => {
  it('is what the OpenAPI document the service serves generates today', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gauntlet-dashboard-api-'));
    try {
      await promisify(execFile)(process.execPath, [join(ROOT, 'dist/apps/dashboard/codegen/main.js'), dir], { cwd: ROOT, timeout: 90_000 });
      for (const name of ['schema.d.ts', 'enums.ts']) {
        const stale = readFileSync(join(COMMITTED, name), 'utf8') !== readFileSync(join(dir, name), 'utf8');
        if (stale) throw new Error(`apps/dashboard/src/api/${name} differs from the OpenAPI document the service serves: run \`${REGENERATE}\` and commit the result`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
