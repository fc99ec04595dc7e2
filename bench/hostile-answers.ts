/**
 * What a hostile target's answer costs to judge: every part of Gauntlet that reads target-written
 * text (libs/scanner/testing/hostile-answers.ts lists them: finders, rules, readings, disclosure,
 * candidates, refusal, the monitor, custom patterns, topics, the answer readers of the API formats)
 * on answers of 4 MiB built for their patterns' classes (runs of one class, classes alternating,
 * prefixes that nearly match, repeated). Prints, per reader, the worst CPU time per MiB and the shape
 * that caused it. A reader that takes seconds on a smaller answer is not run at 4 MiB: its figure is
 * extrapolated from the growth it showed (marked ~), which is how a quadratic pattern shows.
 *
 *   npm run build && node dist/bench/hostile-answers.js [reader name filter] [--write]
 *
 * --write records the figures in libs/scanner/testing/hostile-answers.figures.json, which
 * hostile-answers.spec.ts holds every reader to (10x its figure).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTILE_READERS, HOSTILE_SHAPES, hostileAnswer, HostileShape } from '../libs/scanner/testing/hostile-answers';

const MiB = 1024 * 1024;
const FULL = 4 * MiB;
const FIRST = 16 * 1024;
/** no run is tried that a quadratic reader would take longer than this on: it is extrapolated instead */
const BUDGET_MS = 2000;

const args = process.argv.slice(2);
const write = args.includes('--write');
const filter = args.find((a) => !a.startsWith('--'))?.toLowerCase();

/** CPU milliseconds (user and system, this process) one read takes */
async function cpuMs(read: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await read();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

interface Figure {
  msPerMiB: number;
  shape: string;
  extrapolated: boolean;
}

/**
 * One reader on one shape: from 16 KiB up to 4 MiB by steps of 16 (or 4), each step taken only if
 * the reader, were it quadratic, would stay within the budget; else the growth seen so far is
 * carried to 4 MiB.
 */
async function figureOf(read: (text: string) => unknown, shape: HostileShape): Promise<Figure> {
  // growth as a power of the length: assumed quadratic until two sizes were measured
  let growth = 2;
  let previous: { chars: number; ms: number } | null = null;
  for (let chars = FIRST; ; ) {
    const text = hostileAnswer(shape, chars);
    const ms = await cpuMs(() => read(text));
    if (chars === FULL) return { msPerMiB: ms / (FULL / MiB), shape: shape.name, extrapolated: false };
    if (previous && previous.ms > 2 && ms > 2) growth = Math.max(1, Math.log(ms / previous.ms) / Math.log(chars / previous.chars));
    const step = [16, 4].find((k) => chars * k <= FULL && ms * k ** growth <= BUDGET_MS);
    if (!step) {
      const at4 = ms * (FULL / chars) ** growth;
      return { msPerMiB: at4 / 4, shape: `${shape.name} (${ms.toFixed(0)} ms at ${chars / 1024} KiB, growth n^${growth.toFixed(1)}, extrapolated)`, extrapolated: true };
    }
    previous = { chars, ms };
    chars *= step;
  }
}

async function worstOf(read: (text: string) => unknown): Promise<Figure> {
  let worst: Figure = { msPerMiB: 0, shape: '', extrapolated: false };
  for (const shape of HOSTILE_SHAPES) {
    const figure = await figureOf(read, shape);
    if (process.env.VERBOSE) console.error(`  ${figure.shape}: ${figure.msPerMiB.toFixed(2)}`);
    if (figure.msPerMiB > worst.msPerMiB) worst = figure;
  }
  return worst;
}

async function main() {
  const readers = HOSTILE_READERS.filter((r) => !filter || r.name.toLowerCase().includes(filter));
  console.log(`hostile answers: node dist/bench/hostile-answers.js${filter ? ` ${filter}` : ''} (${readers.length} readers x ${HOSTILE_SHAPES.length} shapes, 4 MiB; CPU ms per MiB, worst shape)`);
  const figures: Record<string, number> = {};
  const rows: string[][] = [['reader', 'ms per MiB', 'worst shape']];
  for (const reader of readers) {
    const worst = await worstOf(reader.read);
    figures[reader.name] = Number(worst.msPerMiB.toFixed(2));
    const row = [reader.name, `${worst.extrapolated ? '~' : ''}${worst.msPerMiB < 10 ? worst.msPerMiB.toFixed(2) : Math.round(worst.msPerMiB)}`, worst.shape];
    rows.push(row);
    console.log(row.join('  |  '));
  }
  console.log('');
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log(rows.map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n'));
  const over = rows.slice(1).filter((r) => Number(r[1].replace('~', '')) >= 50);
  console.log(`\n${over.length} of ${readers.length} readers at or over 50 ms per MiB`);
  if (write) {
    const file = join(__dirname, '../../libs/scanner/testing/hostile-answers.figures.json');
    writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(`figures written to ${file}`);
  }
}

void main();
