import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, judgeCorpus, readCorpus, Recorded, scorecard } from '../../bench/judge-scorecard';

/**
 * The judge held to its published figures (bench/judge-corpus/scorecard.json, recorded by
 * `node dist/bench/judge-scorecard.js --write`): on the committed corpus, no model needed, every
 * category's precision and recall stay at or above their recorded floor, a little under the
 * recorded figure (never under its 95 % interval's low end). A change to the judge that costs more
 * than that fails here; one that gains is recorded again with --write.
 */
describe('the judge, measured on its labelled corpus', () => {
  const corpus = readCorpus();
  const recorded = JSON.parse(readFileSync(join(CORPUS_DIR, 'scorecard.json'), 'utf8')) as Recorded;

  it('every line says what it is labelled for and why, and belongs to a split', () => {
    for (const { lines } of corpus) {
      for (const l of lines) {
        expect({ id: l.id, split: ['tune', 'held-out'].includes(l.split), reason: l.reason.length > 10, labels: Object.keys(l.labels).length > 0 }).toEqual({ id: l.id, split: true, reason: true, labels: true });
      }
    }
    expect(new Set(corpus.flatMap((f) => f.lines.map((l) => l.id))).size).toBe(corpus.reduce((n, f) => n + f.lines.length, 0));
  });

  it('keeps each category\'s precision and recall at or above its recorded floor', async () => {
    // the figures alone: the recorded floors are what they are held to
    const rows = scorecard(corpus, await judgeCorpus(corpus), { splits: ['all'], resamples: 0 });
    expect(Object.keys(recorded.rows).length).toBeGreaterThan(0);
    const dropped: string[] = [];
    for (const [name, figure] of Object.entries(recorded.rows)) {
      expect({ name, lines: corpus.reduce((n, f) => n + f.lines.length, 0) }).toEqual({ name, lines: figure.lines });
      const now = rows.find((r) => r.name === name);
      for (const measure of ['precision', 'recall'] as const) {
        const { value: was, floor } = figure[measure];
        const value = now?.[measure].value ?? 0;
        if (floor !== null && value < floor - 1e-9) dropped.push(`${name} ${measure} ${value.toFixed(3)}, recorded ${was?.toFixed(3)} (floor ${floor.toFixed(3)})`);
      }
    }
    expect(dropped).toEqual([]);
  }, 120_000);
});
