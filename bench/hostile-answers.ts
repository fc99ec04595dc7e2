/**
 * What a hostile target's answer costs to judge: every part of Gauntlet that reads target-written
 * text (libs/scanner/testing/hostile-answers.ts lists them: finders, rules, readings, disclosure,
 * candidates, refusal, the monitor, custom patterns, topics, the answer readers of the API formats)
 * on answers of 4 MiB built for their patterns' classes (runs of one class, classes alternating,
 * prefixes that nearly match, repeated). Prints, per reader, the worst CPU time per MiB and the shape
 * that caused it.
 *
 * Per MiB of what: of the shape's text. For most readers that is the answer they judge. The
 * answer readers of the API formats read the bytes a target sent, and there it depends on the
 * reader: those named for one wrapping ("streamed, small events": 64 characters an event) are
 * per MiB of the text the events carry, the wire around it being larger (that one's is 1.7 times
 * the text, more where the text needs escapes); those named "wire shapes" are tried on shapes of their own whose text is the wire
 * itself (dense framing, the smallest events, JSON dear per byte: a target chooses how densely it
 * frames an answer), so their figures are per MiB of the wire the target wrote, which is what the
 * transport's cap on an answer (4 MiB, api-transport.ts) bounds.
 *
 * A reader is tried on each shape from 1 KiB up, by steps of 16 (or 4), each step only if the reader,
 * growing as it has so far, would stay within a few seconds; else its figure is carried to 4 MiB from
 * that growth (marked ~): that is how a quadratic pattern shows. Each reader runs in a worker thread
 * with a watchdog, so one that never ends on a small answer (a cubic pattern) is stopped, reported as
 * at least the time it was given, and the rest of its shapes go on in a new worker.
 *
 *   npm run build && node dist/bench/hostile-answers.js [reader name filter] [--write | --ratios-only]
 *
 * A time is no figure for a spec on a shared machine, so the spec holds each reader to its work
 * ratio instead: its CPU time on a 64 KiB answer divided by that of a plain pass over the same
 * answer's characters, the two measured in turns in one process (libs/scanner/testing/work-ratio.ts),
 * so that load slows both alike. `--write` records, beside each reader's 4 MiB figure, its ratio
 * on the three shapes that cost it most at that size (every shape timed, those three measured
 * against the yardstick in seven rounds) in libs/scanner/testing/hostile-answers.figures.json (the readers
 * measured replace their entries; the others are kept); `--ratios-only` records the ratios without
 * the 4 MiB figures (minutes instead of most of an hour). hostile-answers.int.spec.ts fails when a
 * reader's ratio passes ten times its recorded one (never held below one pass over the text), or
 * when a reader has no recorded figure. The spec measures in a node process of its own from the
 * build (measure-ratios.ts), as this bench does, where the readers' ratios came out between 0.14
 * and 2.6 times the figures recorded here (load 6 to 8, a bench beside it): a margin of four times
 * at least; a reader turned quadratic passes its bound thousands of times over.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  FIGURES_FILE,
  HOSTILE_READERS,
  hostileAnswer,
  HostileFigures,
  HostileReader,
  HostileShape,
  RATIO_CHARS,
  RATIO_SHAPES,
  readingOf,
  RecordedReader,
  shapesOf,
} from '../libs/scanner/testing/hostile-answers';
import { cpuMsPerCall, workRatio } from '../libs/scanner/testing/work-ratio';

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
const cpuMs = (read: () => unknown): Promise<number> => cpuMsPerCall(read, 1);

/** carried to 4 MiB from `ms` at `chars`, growing as a power `growth` of the length */
const extrapolated = (shape: HostileShape, ms: number, chars: number, growth: number, over = false): Figure => ({
  msPerMiB: (ms * (FULL / chars) ** growth) / 4,
  shape: `${shape.name} (${over ? 'over ' : ''}${(ms / 1000).toFixed(1)} s at ${chars / 1024} KiB, growth n^${growth.toFixed(1)}, extrapolated)`,
  extrapolated: true,
});

/** one reader on one shape, from 1 KiB up to 4 MiB */
async function figureOf(reader: HostileReader, shape: HostileShape, trying: (chars: number) => void): Promise<Figure> {
  // growth as a power of the length: assumed quadratic until two sizes were measured
  let growth = 2;
  let previous: { chars: number; ms: number } | null = null;
  for (let chars = FIRST; ; ) {
    const text = hostileAnswer(shape, chars);
    trying(chars);
    const ms = await cpuMs(readingOf(reader, text));
    if (chars === FULL) return { msPerMiB: ms / (text.length / MiB), shape: shape.name, extrapolated: false };
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
  const shapes = shapesOf(HOSTILE_READERS[reader]);
  for (let shape = from; shape < shapes.length; shape++) {
    const figure = await figureOf(HOSTILE_READERS[reader], shapes[shape], (chars) => post({ kind: 'trying', shape, chars }));
    post({ kind: 'figure', shape, figure });
  }
  post({ kind: 'done' });
}

/** one reader's worst figure: its shapes in a worker, a read that outlasts the watchdog stopped and counted at least that long */
async function worstOf(reader: number): Promise<Figure> {
  const shapes = shapesOf(HOSTILE_READERS[reader]);
  let worst: Figure = { msPerMiB: 0, shape: '', extrapolated: false };
  const consider = (figure: Figure) => {
    if (process.env.VERBOSE) console.error(`  ${figure.shape}: ${figure.msPerMiB.toFixed(2)}`);
    if (figure.msPerMiB > worst.msPerMiB) worst = figure;
  };
  for (let from = 0; from < shapes.length; ) {
    from = await new Promise<number>((resolve, reject) => {
      const worker = new Worker(__filename, { workerData: { reader, from } });
      let trying = { shape: from, chars: FIRST };
      let watchdog: NodeJS.Timeout;
      const arm = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          consider(extrapolated(shapes[trying.shape], WATCHDOG_MS, trying.chars, 2, true));
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
          void worker.terminate().then(() => resolve(shapes.length));
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

/** three significant digits */
const rounded = (n: number) => Number(n.toPrecision(3));

/**
 * a reader's work ratio at RATIO_CHARS on the shapes that cost it most there: every shape screened
 * by the least CPU time of two calls after a first (the yardstick costs about the same on every
 * shape of one length), the worst measured against the yardstick in seven rounds
 */
async function ratiosOf(reader: HostileReader): Promise<RecordedReader['ratios']> {
  const screened: [HostileShape, number][] = [];
  for (const shape of shapesOf(reader)) {
    const reading = readingOf(reader, hostileAnswer(shape, RATIO_CHARS));
    await reading();
    screened.push([shape, Math.min(await cpuMs(reading), await cpuMs(reading))]);
  }
  const ratios: RecordedReader['ratios'] = [];
  for (const [shape] of screened.sort((a, b) => b[1] - a[1]).slice(0, RATIO_SHAPES)) {
    const text = hostileAnswer(shape, RATIO_CHARS);
    ratios.push({ shape: shape.name, ratio: rounded(await workRatio(readingOf(reader, text), text, { rounds: 7 })) });
  }
  return ratios.sort((a, b) => b.ratio - a.ratio);
}

/** the figures file with `measured` in place of what it held for those readers, in the readers' order, without readers that no longer exist */
function writeFigures(measured: Record<string, RecordedReader>): string {
  const file = join(__dirname, '..', '..', FIGURES_FILE);
  const before: HostileFigures | null = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  const kept = before?.chars === RATIO_CHARS ? before.readers : {};
  const readers: Record<string, RecordedReader> = {};
  for (const { name } of HOSTILE_READERS) {
    const figure = measured[name] ?? kept[name];
    if (figure) readers[name] = figure;
  }
  // a reader a line, so a change of figures reads as a change of lines
  const lines = Object.entries(readers).map(([name, figure]) => `    ${JSON.stringify(name)}: ${JSON.stringify(figure)}`);
  writeFileSync(file, `{\n  "chars": ${RATIO_CHARS satisfies HostileFigures['chars']},\n  "readers": {\n${lines.join(',\n')}\n  }\n}\n`);
  return file;
}

async function main() {
  const args = process.argv.slice(2);
  const ratiosOnly = args.includes('--ratios-only');
  const write = ratiosOnly || args.includes('--write');
  const filter = args.find((a) => !a.startsWith('--'))?.toLowerCase();
  const readers = HOSTILE_READERS.map((r, i) => [r, i] as const).filter(([r]) => !filter || r.name.toLowerCase().includes(filter));
  const command = `node dist/bench/hostile-answers.js${filter ? ` ${filter}` : ''}${ratiosOnly ? ' --ratios-only' : write ? ' --write' : ''}`;
  console.log(`hostile answers: ${command} (${readers.length} readers, ${readers.reduce((n, [r]) => n + shapesOf(r).length, 0)} reader-shape pairs, 4 MiB; CPU ms per MiB, worst shape${write ? `; work ratio at ${RATIO_CHARS / 1024} KiB, worst shapes` : ''})`);
  const rows: string[][] = [['reader', 'ms per MiB', 'worst shape', ...(write ? ['work ratio'] : [])]];
  const measured: Record<string, RecordedReader> = {};
  for (const [reader, index] of readers) {
    const worst = ratiosOnly ? null : await worstOf(index);
    const row = [reader.name, worst ? `${worst.extrapolated ? '~' : ''}${worst.msPerMiB < 10 ? worst.msPerMiB.toFixed(2) : Math.round(worst.msPerMiB)}` : '-', worst?.shape ?? '-'];
    if (write) {
      const load = rounded(loadavg()[0]);
      const ratios = await ratiosOf(reader);
      measured[reader.name] = { ms_per_mib: worst ? rounded(worst.msPerMiB) : null, load, ratios };
      row.push(ratios.map((r) => `${r.ratio} (${r.shape})`).join(', '));
    }
    rows.push(row);
    console.log(row.join('  |  '));
  }
  console.log('');
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  if (!ratiosOnly) {
    const over = rows.slice(1).filter((r) => Number(r[1].replace('~', '')) >= 50);
    console.log(`\n${over.length} of ${readers.length} readers at or over 50 ms per MiB`);
  }
  if (write) console.log(`\nfigures written to ${writeFigures(measured)}`);
}

if (isMainThread) void main();
else void work(workerData);
