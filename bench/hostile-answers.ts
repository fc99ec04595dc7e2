/**
 * What a hostile target's answer costs to judge: every part of Gauntlet that reads target-written
 * text (libs/scanner/testing/hostile-answers.ts lists them: finders, rules, readings, disclosure,
 * candidates, refusal, the monitor, custom patterns, topics, the answer readers of the API formats)
 * on answers of 4 MiB built for their patterns' classes (runs of one class, classes alternating,
 * prefixes that nearly match, repeated). Prints, per reader, the worst CPU time per MiB and the shape
 * that caused it.
 *
 * A reader is tried on each shape from 1 KiB up, by steps of 16 (or 4), each step only if the reader,
 * growing as it has so far, would stay within a few seconds; else its figure is carried to 4 MiB from
 * that growth (marked ~): that is how a quadratic pattern shows. Each reader runs in a worker thread
 * with a watchdog, so one that never ends on a small answer (a cubic pattern) is stopped, reported as
 * at least the time it was given, and the rest of its shapes go on in a new worker.
 *
 *   npm run build && node dist/bench/hostile-answers.js [reader name filter]
 *
 * No spec holds a reader to its figure: a time measured on a shared machine cannot fail only when
 * a reader regressed. The rewritten readers' specs hold what can be held without a clock: each
 * rewrite finds what the pattern it replaced found, on thousands of random texts.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { HOSTILE_READERS, HOSTILE_SHAPES, hostileAnswer, HostileShape } from '../libs/scanner/testing/hostile-answers';

const MiB = 1024 * 1024;
const FULL = 4 * MiB;
const FIRST = 1024;
/** no size is tried that the reader, growing as it has, would take longer than this on: extrapolated instead */
const BUDGET_MS = 2000;
/** a single read taking longer than this is stopped (its worker ended) */
const WATCHDOG_MS = 30_000;

interface Figure {
  msPerMiB: number;
  shape: string;
  extrapolated: boolean;
}

type FromWorker = { kind: 'trying'; shape: number; chars: number } | { kind: 'figure'; shape: number; figure: Figure } | { kind: 'done' };

/** CPU milliseconds (user and system, this process) one read takes */
async function cpuMs(read: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await read();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** carried to 4 MiB from `ms` at `chars`, growing as a power `growth` of the length */
const extrapolated = (shape: HostileShape, ms: number, chars: number, growth: number, over = false): Figure => ({
  msPerMiB: (ms * (FULL / chars) ** growth) / 4,
  shape: `${shape.name} (${over ? 'over ' : ''}${(ms / 1000).toFixed(1)} s at ${chars / 1024} KiB, growth n^${growth.toFixed(1)}, extrapolated)`,
  extrapolated: true,
});

/** one reader on one shape, from 1 KiB up to 4 MiB */
async function figureOf(read: (text: string) => unknown, shape: HostileShape, trying: (chars: number) => void): Promise<Figure> {
  // growth as a power of the length: assumed quadratic until two sizes were measured
  let growth = 2;
  let previous: { chars: number; ms: number } | null = null;
  for (let chars = FIRST; ; ) {
    const text = hostileAnswer(shape, chars);
    trying(chars);
    const ms = await cpuMs(() => read(text));
    if (chars === FULL) return { msPerMiB: ms / (FULL / MiB), shape: shape.name, extrapolated: false };
    if (previous && previous.ms > 2 && ms > 2) growth = Math.max(1, Math.log(ms / previous.ms) / Math.log(chars / previous.chars));
    const step = [16, 4].find((k) => chars * k <= FULL && ms * k ** growth <= BUDGET_MS);
    if (!step) return extrapolated(shape, ms, chars, growth);
    previous = { chars, ms };
    chars *= step;
  }
}

/** in a worker: one reader's figures, shape by shape from `from` on */
async function work({ reader, from }: { reader: number; from: number }): Promise<void> {
  const post = (m: FromWorker) => parentPort!.postMessage(m);
  for (let shape = from; shape < HOSTILE_SHAPES.length; shape++) {
    const figure = await figureOf(HOSTILE_READERS[reader].read, HOSTILE_SHAPES[shape], (chars) => post({ kind: 'trying', shape, chars }));
    post({ kind: 'figure', shape, figure });
  }
  post({ kind: 'done' });
}

/** one reader's worst figure: its shapes in a worker, a read that outlasts the watchdog stopped and counted at least that long */
async function worstOf(reader: number): Promise<Figure> {
  let worst: Figure = { msPerMiB: 0, shape: '', extrapolated: false };
  const consider = (figure: Figure) => {
    if (process.env.VERBOSE) console.error(`  ${figure.shape}: ${figure.msPerMiB.toFixed(2)}`);
    if (figure.msPerMiB > worst.msPerMiB) worst = figure;
  };
  for (let from = 0; from < HOSTILE_SHAPES.length; ) {
    from = await new Promise<number>((resolve, reject) => {
      const worker = new Worker(__filename, { workerData: { reader, from } });
      let trying = { shape: from, chars: FIRST };
      let watchdog: NodeJS.Timeout;
      const arm = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          consider(extrapolated(HOSTILE_SHAPES[trying.shape], WATCHDOG_MS, trying.chars, 2, true));
          void worker.terminate().then(() => resolve(trying.shape + 1));
        }, WATCHDOG_MS);
      };
      arm();
      worker.on('message', (m: FromWorker) => {
        if (m.kind === 'trying') {
          trying = { shape: m.shape, chars: m.chars };
          arm();
        } else if (m.kind === 'figure') consider(m.figure);
        else {
          clearTimeout(watchdog);
          void worker.terminate().then(() => resolve(HOSTILE_SHAPES.length));
        }
      });
      worker.on('error', (err) => {
        clearTimeout(watchdog);
        reject(err);
      });
    });
  }
  return worst;
}

async function main() {
  const args = process.argv.slice(2);
  const filter = args.find((a) => !a.startsWith('--'))?.toLowerCase();
  const readers = HOSTILE_READERS.map((r, i) => [r, i] as const).filter(([r]) => !filter || r.name.toLowerCase().includes(filter));
  console.log(`hostile answers: node dist/bench/hostile-answers.js${filter ? ` ${filter}` : ''} (${readers.length} readers x ${HOSTILE_SHAPES.length} shapes, 4 MiB; CPU ms per MiB, worst shape)`);
  const rows: string[][] = [['reader', 'ms per MiB', 'worst shape']];
  for (const [reader, index] of readers) {
    const worst = await worstOf(index);
    const row = [reader.name, `${worst.extrapolated ? '~' : ''}${worst.msPerMiB < 10 ? worst.msPerMiB.toFixed(2) : Math.round(worst.msPerMiB)}`, worst.shape];
    rows.push(row);
    console.log(row.join('  |  '));
  }
  console.log('');
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  const over = rows.slice(1).filter((r) => Number(r[1].replace('~', '')) >= 50);
  console.log(`\n${over.length} of ${readers.length} readers at or over 50 ms per MiB`);
}

if (isMainThread) void main();
else void work(workerData);
