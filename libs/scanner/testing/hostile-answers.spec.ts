import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIGURES_FILE, HOSTILE_READERS, HOSTILE_SHAPES, hostileAnswer, HostileFigures, RATIO_CHARS, RATIO_FLOOR, RATIO_LIMIT, readingOf } from './hostile-answers';
import { workRatio } from './work-ratio';

const figures: HostileFigures = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', FIGURES_FILE), 'utf8'));
const measure = `npm run -s build && node dist/bench/hostile-answers.js NAME --ratios-only`;

/**
 * Every reader of target-written text against its recorded work (bench/hostile-answers.ts
 * --write): no clock, a ratio of CPU times measured in turns in this process (work-ratio.ts), so a
 * busy machine cannot fail it; a reader that became quadratic, or ten times dearer, does.
 */
describe('every reader of what a target wrote stays within ten times its recorded work', () => {
  it('the figures were measured at the size measured here', () => {
    expect(figures.chars).toBe(RATIO_CHARS);
  });

  it.each(HOSTILE_READERS.map((reader) => [reader.name, reader] as const))('%s', async (name, reader) => {
    const recorded = figures.readers[name];
    if (!recorded) throw new Error(`no work ratio recorded for the reader "${name}": measure it (${measure.replace('NAME', JSON.stringify(name))}) and commit the figures`);
    expect(recorded.ratios.length).toBeGreaterThan(0);
    const over: string[] = [];
    for (const { shape: shapeName, ratio } of recorded.ratios) {
      const shape = HOSTILE_SHAPES.find((s) => s.name === shapeName);
      if (!shape) throw new Error(`the shape "${shapeName}" recorded for "${name}" is gone: measure the reader again (${measure.replace('NAME', JSON.stringify(name))})`);
      const bound = Math.max(ratio * RATIO_LIMIT, RATIO_FLOOR);
      // at least five rounds; up to twenty-five while a little over the bound, the least of them kept: a
      // burst of load passes, and a reader three times over after five rounds has not met a burst
      const text = hostileAnswer(shape, RATIO_CHARS);
      const measured = await workRatio(readingOf(reader, text), text, { rounds: 5, upTo: 25, enough: (r) => r <= bound || r > 3 * bound, giveUpAbove: 10 * bound });
      if (measured > bound) {
        over.push(`${shapeName}: work ratio ${measured.toPrecision(3)}, over ${RATIO_LIMIT} x the recorded ${ratio}`);
        break;
      }
    }
    expect(over).toEqual([]);
  }, 120_000);
});
