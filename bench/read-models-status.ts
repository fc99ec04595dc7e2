// How fast is GET /api/scans/{id}/status at the read model? `get(id)` of a scan-status-sized
// document, one read at a time (latency) and 16 in flight (throughput), on the embedded SQLite
// store and, when MONGODB_URL or FERRETDB_URL is set, on MongoDB/FerretDB.
//
//   npm run build && node dist/bench/read-models-status.js
//   eval "$(infra/ferretdb.sh start)" && node dist/bench/read-models-status.js
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@gauntlet/eventstore';
import { connectMongoDocumentStore, SqliteDocumentStore, type Collection, type DocumentStore, type ScanDoc } from '@gauntlet/read-models';

const DOCS = 2_000;

function scanDoc(i: number): ScanDoc {
  const created = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
  return {
    _id: randomUUID(),
    _rev: 40 + (i % 60),
    account_id: `acc-${i % 50}`,
    target_id: randomUUID(),
    target_name: `support bot ${i}`,
    profile: 'standard',
    origin: i % 3 ? 'api' : 'ci',
    fail_threshold: i % 3 ? null : 70,
    status: 'running',
    phase: 'amplify',
    progress: 55,
    findings_so_far: 4,
    severity_counts: { critical: 1, high: 2, medium: 1, low: 0 },
    probes_run: 118,
    requests: { recon: 1, probe: 76, amplify: 40 },
    created_at: created,
    created_month: created.slice(0, 7),
    started_at: created,
    finished_at: null,
    reason: null,
    score: null,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(label: string, store: DocumentStore, reads: number): Promise<void> {
  const scans: Collection<ScanDoc> = store.collection<ScanDoc>(`bench_scans_${process.pid}`);
  await scans.drop();
  await scans.ensureIndex(['account_id', 'created_at']);
  const ids: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    const doc = scanDoc(i);
    ids.push(doc._id);
    await scans.putIfNewer(doc as ScanDoc & { _rev: number });
  }
  const bytes = JSON.stringify(scanDoc(0)).length;
  const pick = (i: number) => ids[(i * 7919) % ids.length];

  for (let i = 0; i < Math.min(500, reads); i++) await scans.get(pick(i)); // warm caches and JIT

  const latencies = new Array<number>(reads);
  const started = process.hrtime.bigint();
  for (let i = 0; i < reads; i++) {
    const t = process.hrtime.bigint();
    const doc = await scans.get(pick(i));
    latencies[i] = Number(process.hrtime.bigint() - t) / 1e3;
    if (!doc) throw new Error('missing document');
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);

  const inFlight = 16;
  let next = 0;
  const parallelStarted = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < reads) await scans.get(pick(next++));
    }),
  );
  const parallelSeconds = Number(process.hrtime.bigint() - parallelStarted) / 1e9;

  console.log(
    `${label.padEnd(9)} get(id) of a ${bytes}-byte status doc among ${DOCS}: ${Math.round(reads / seconds).toLocaleString('en')} reads/s sequential, ` +
      `p50 ${latencies[Math.floor(reads / 2)].toFixed(1)} µs, p99 ${percentile(latencies, 99).toFixed(1)} µs, max ${latencies[reads - 1].toFixed(0)} µs; ` +
      `${Math.round(reads / parallelSeconds).toLocaleString('en')} reads/s with ${inFlight} in flight (${reads} reads each)`,
  );
  await scans.drop();
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${process.platform}/${process.arch}; command: node dist/bench/read-models-status.js`);
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-bench-rm-'));
  const db = openSqlite(join(dir, 'gauntlet.db'));
  try {
    await measure('sqlite', new SqliteDocumentStore(db), 50_000);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const url = process.env.MONGODB_URL || process.env.FERRETDB_URL;
  if (!url) {
    console.log('mongo     skipped: set MONGODB_URL, or FERRETDB_URL via `eval "$(infra/ferretdb.sh start)"`');
    return;
  }
  const label = process.env.MONGODB_URL ? 'mongodb' : 'ferretdb';
  const dbName = `gauntlet_bench_${process.pid}`;
  const store = await connectMongoDocumentStore(url, dbName);
  try {
    await measure(label, store, 2_000);
  } finally {
    await store.close();
    const client = await MongoClient.connect(url);
    await client.db(dbName).dropDatabase();
    await client.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
