import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIGURES_FILE, HOSTILE_READERS, hostileAnswer, HostileFigures, RATIO_CHARS, RATIO_FLOOR, RATIO_LIMIT, readingOf, shapesOf } from './hostile-answers';
import { workRatio } from './work-ratio';

/** one reader on one of its recorded shapes, measured again */
export interface MeasuredRatio {
  reader: string;
  shape: string;
  recorded: number;
  bound: number;
  ratio: number | null;
}

/**
 * Every reader's work ratio on each of its recorded shapes, measured again against the bound the
 * spec holds it to: at least five rounds; up to twenty-five while a little over the bound, the
 * least of them kept (a burst of load passes, and a reader three times over after five rounds has
 * not met a burst); a first call ten times over the bound is not measured further (a quadratic
 * reader takes seconds a call). A reader's other shapes are not measured once one is over.
 *
 * Run as its own node process from the build (hostile-answers.int.spec.ts): in a plain process, as
 * the bench records the figures. Under jest the same readers measured 0.2 to 15 times their
 * figures, after a hundred other suites had filled the process's heap.
 */
export async function measureRatios(figures: HostileFigures): Promise<MeasuredRatio[]> {
  const out: MeasuredRatio[] = [];
  for (const reader of HOSTILE_READERS) {
    for (const { shape: name, ratio: recorded } of figures.readers[reader.name]?.ratios ?? []) {
      const shape = shapesOf(reader).find((s) => s.name === name);
      const bound = Math.max(recorded * RATIO_LIMIT, RATIO_FLOOR);
      if (!shape) {
        out.push({ reader: reader.name, shape: name, recorded, bound, ratio: null });
        continue;
      }
      const text = hostileAnswer(shape, RATIO_CHARS);
      const ratio = await workRatio(readingOf(reader, text), text, { rounds: 5, upTo: 25, enough: (r) => r <= bound || r > 3 * bound, giveUpAbove: 10 * bound });
      out.push({ reader: reader.name, shape: name, recorded, bound, ratio });
      if (ratio > bound) break;
    }
  }
  return out;
}

/** the figures committed beside this file, from the source or from its build under dist/ */
export function committedFigures(root: string): HostileFigures {
  return JSON.parse(readFileSync(join(root, FIGURES_FILE), 'utf8'));
}

if (require.main === module) {
  void measureRatios(committedFigures(join(__dirname, '..', '..', '..', '..'))).then((measured) => process.stdout.write(JSON.stringify(measured)));
}
