import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HOSTILE_READERS, RATIO_CHARS, RATIO_LIMIT, shapesOf } from './hostile-answers';
import { committedFigures, MeasuredRatio } from './measure-ratios';

const ROOT = join(__dirname, '..', '..', '..');
const figures = committedFigures(ROOT);
const measure = (name: string) => `npm run -s build && node dist/bench/hostile-answers.js ${JSON.stringify(name)} --ratios-only`;

/**
 * Every reader of target-written text against its recorded work (bench/hostile-answers.ts
 * --write): no clock, a ratio of CPU times measured in turns (work-ratio.ts), so a busy machine
 * cannot fail it; a reader that became quadratic, or ten times dearer, does. Measured in a node
 * process of its own from the build (measure-ratios.ts), as the bench records the figures.
 */
describe('every reader of what a target wrote stays within ten times its recorded work', () => {
  let measured: MeasuredRatio[] = [];
  beforeAll(async () => {
    const script = join(ROOT, 'dist/libs/scanner/testing/measure-ratios.js');
    if (!existsSync(script)) throw new Error(`${script} is not built: npm run -s build`);
    const { stdout } = await promisify(execFile)(process.execPath, [script], { maxBuffer: 1 << 24, timeout: 600_000 });
    measured = JSON.parse(stdout);
  }, 610_000);

  it('the figures were measured at the size measured here, on shapes that exist', () => {
    expect(figures.chars).toBe(RATIO_CHARS);
    const gone = Object.entries(figures.readers).flatMap(([name, r]) => {
      const reader = HOSTILE_READERS.find((x) => x.name === name);
      return r.ratios.filter((x) => !reader || !shapesOf(reader).some((s) => s.name === x.shape)).map((x) => `${name}: ${x.shape} (${measure(name)})`);
    });
    expect(gone).toEqual([]);
  });

  it.each(HOSTILE_READERS.map((reader) => [reader.name]))('%s', (name) => {
    const recorded = figures.readers[name];
    if (!recorded?.ratios.length) throw new Error(`no work ratio recorded for the reader "${name}": measure it (${measure(name)}) and commit the figures`);
    const over = measured.filter((m) => m.reader === name && m.ratio !== null && m.ratio > m.bound);
    expect(over.map((m) => `${m.shape}: work ratio ${m.ratio!.toPrecision(3)}, over ${RATIO_LIMIT} x the recorded ${m.recorded}`)).toEqual([]);
    expect(measured.filter((m) => m.reader === name).length).toBeGreaterThan(0);
  });
});
