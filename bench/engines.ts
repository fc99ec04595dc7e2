// The engines side by side in one run: appends/s and subscription lag on the embedded event
// store, status reads/s on the read-model stores (SQLite, and MongoDB/FerretDB when
// MONGODB_URL or FERRETDB_URL is set), and events/s through the bus end to end (embedded, and
// Kafka when KAFKA_BROKERS is set). Each part runs in its own process, one after the other, so
// they do not compete for the two cores.
//
//   npm run build && eval "$(infra/kafka.sh start)" && eval "$(infra/ferretdb.sh start)" && node dist/bench/engines.js
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const parts: [string, string][] = [
  ['event store (embedded SQLite): appends and subscription lag', 'eventstore-appends.js'],
  ['read models: status document reads', 'read-models-status.js'],
  ['bus: publish to handler, end to end', 'bus-throughput.js'],
];

console.log(`engines benchmark, node ${process.version}, ${new Date().toISOString()}`);
console.log(`KAFKA_BROKERS=${process.env.KAFKA_BROKERS ?? '(unset)'}  MONGODB_URL=${process.env.MONGODB_URL ?? '(unset)'}  FERRETDB_URL=${process.env.FERRETDB_URL ?? '(unset)'}`);
let failed = false;
for (const [title, file] of parts) {
  console.log(`\n== ${title}`);
  const run = spawnSync(process.execPath, [join(__dirname, file)], { stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    console.log(`(${file} exited with ${run.status})`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
