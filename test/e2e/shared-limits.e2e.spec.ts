import { mkdtempSync } from 'node:fs';
import { insideOneClockWindow } from '../support/clock-window';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { RoleProcess, startRole } from '../support/processes';
import { client, removeDir } from '../support/service';

const mongoUrl = process.env.MONGODB_URL ?? process.env.FERRETDB_URL;

/** where the api processes keep their counters: one SQLite file in a shared DATA_DIR, or MongoDB */
const engines: [string, (id: string) => Record<string, string> | null][] = [
  ['both on one DATA_DIR (SQLite)', () => ({})],
  ['both on FerretDB (MONGODB_URL)', (id) => (mongoUrl ? { MONGODB_URL: mongoUrl, MONGODB_DATABASE: `gauntlet_limits_${id}` } : null)],
];

/**
 * The per-IP limit is one budget however many api processes serve it, and a restart does not
 * refill it: two api processes, alternately asked, allow the limit in all, not twice the limit.
 */
for (const [engine, envOf] of engines) {
  const id = Math.random().toString(36).slice(2, 8);
  const extra = envOf(id);
  const run = extra ? describe : describe.skip;
  run(`the per-IP limit across two api processes, ${engine}`, () => {
    const LIMIT = 40;
    const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-limits-'));
    const port = 24000 + Math.floor(Math.random() * 8000);
    const env = { ...extra, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: String(LIMIT) };
    const procs: RoleProcess[] = [];
    const api = (i: number) => startRole('api', { ...env, PORT: String(port + i) }, 'gauntlet api listening').then((p) => (procs[i] = p));

    beforeAll(async () => {
      await api(0); // the first creates DATA_DIR's generated secrets, which the second then shares
      await api(1);
    }, 120_000);
    afterAll(async () => {
      await Promise.all(procs.map((p) => p.kill()));
      if (extra?.MONGODB_URL) {
        const mongo = await new MongoClient(extra.MONGODB_URL).connect();
        await mongo.db(extra.MONGODB_DATABASE).dropDatabase().catch(() => undefined);
        await mongo.close();
      }
      removeDir(dataDir);
    }, 60_000);

    it('allows the limit in all across both, then 429 from both, and still after a restart', async () => {
      await insideOneClockWindow(60_000, 25_000);
      const at = (i: number) => client(`http://127.0.0.1:${port + i}`);
      const statuses: number[] = [];
      for (let n = 0; n < LIMIT * 2 + 10; n++) {
        const res = await at(n % 2).get('/api/targets');
        statuses.push(res.status);
        if (res.status === 429) {
          expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      // alternately asked, each process uses up what it took: exactly one budget, not two
      expect(statuses.filter((s) => s === 401).length).toBe(LIMIT);
      expect(statuses.filter((s) => s === 429).length).toBe(LIMIT + 10);
      expect(statuses.slice(-10)).toEqual(Array(10).fill(429));

      await procs[0].kill();
      await api(0);
      expect((await at(0).get('/api/targets')).status).toBe(429);
      expect((await at(1).get('/api/targets')).status).toBe(429);
    }, 150_000);
  });
}
