// jest's test sequencer, with the suites known to run longest started first. On a fresh checkout
// (CI) jest has no timings cached and orders files by size, so a short file holding a long run (the
// real model's scans) started last and ran alone on one worker for minutes at the end.
const Sequencer = require('@jest/test-sequencer').default;

/** the longest suites, longest first (their times on a 2-core machine, in a whole run) */
const LONGEST = [
  'libs/scanner/src/engine/real-model.int.spec.ts', // 7-11 min: three scans of SmolLM2
  'libs/scanner/src/drivers/browser/widget-catalogue.int.spec.ts', // 6-7 min
  'test/browser/hostile-pages.e2e.spec.ts', // 3.5-4 min
  'test/e2e/distributed.e2e.spec.ts', // 2.5-3 min
  'test/e2e/openapi-fuzz.e2e.spec.ts',
  'apps/lab/src/model/smollm2.int.spec.ts',
  'test/e2e/browser-scan.e2e.spec.ts',
  'libs/scanner/src/drivers/browser/widget-parity.int.spec.ts',
  'test/e2e/schedulers.e2e.spec.ts',
];

class LongestFirst extends Sequencer {
  async sort(tests) {
    const rank = (test) => {
      const i = LONGEST.findIndex((path) => test.path.endsWith(path));
      return i < 0 ? LONGEST.length : i;
    };
    // stable: the rest keep the order jest gave them (its cached timings, else file size)
    return [...(await super.sort(tests))].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongestFirst;
