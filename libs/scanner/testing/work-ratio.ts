/**
 * What reading a text costs a reader, as a multiple of what one plain pass over the text's
 * characters costs (the yardstick), both in CPU time of this process, measured in turns: a busy
 * machine slows both alike, so the ratio holds where a time would not. A figure worth holding a
 * reader to (hostile-answers.int.spec.ts, through measure-ratios.ts) without a clock in the test.
 *
 * Each measured run repeats its call until it takes at least RUN_MS (a fast reader, and the
 * yardstick itself, take microseconds on a modest text: far below what a CPU clock tells apart);
 * each side's figure is the least of the rounds (what load adds is never less than nothing).
 */

/** the shortest measured run, in CPU milliseconds */
const RUN_MS = 5;

/**
 * the yardstick: one pass over the text's char codes, hashing them (linear, and nothing a pattern
 * could make dearer). No `Math` call: under jest, `Math.imul` is called across the test's context
 * and cost 60 times what it costs in a plain process, which would make the ratios measured there
 * incomparable with the bench's.
 */
export function yardstick(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash;
}
/** what the yardstick computed, kept so no compiler drops its loop */
let sink = 0;

type Run = () => unknown;

/** CPU milliseconds (user and system, this process) per call, over `times` calls */
export async function cpuMsPerCall(run: Run, times: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < times; i++) await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / times;
}

/** how many calls of `run` take at least RUN_MS together */
async function callsPerRun(run: Run): Promise<number> {
  let calls = 1;
  for (;;) {
    const ms = (await cpuMsPerCall(run, calls)) * calls;
    if (ms >= RUN_MS) return calls;
    // doubled while the clock barely moved, then scaled to the run's length (with a margin for its noise)
    calls = ms < RUN_MS / 8 ? calls * 8 : Math.ceil((calls * RUN_MS * 1.2) / ms);
  }
}

export interface RatioOptions {
  /** rounds always measured (5 unless said) */
  rounds?: number;
  /** rounds at most (as many as `rounds` unless said): more are measured while `enough` says no */
  upTo?: number;
  /** whether the ratio so far settles the question (a spec's bound kept) */
  enough?: (ratio: number) => boolean;
  /** a first call dearer than this ratio, cold as it is, is not measured further: its ratio is the answer (a quadratic reader takes seconds a call) */
  giveUpAbove?: number;
}

/**
 * CPU time `reading` takes (a reader on `text`) divided by the yardstick's on `text`: the least of
 * several rounds, each a run of the yardstick then a run of the reader, after a first call of
 * each (compiled code, tables made on first use, the text flattened).
 */
export async function workRatio(reading: () => unknown, text: string, options: RatioOptions = {}): Promise<number> {
  const rounds = options.rounds ?? 5;
  const upTo = Math.max(rounds, options.upTo ?? rounds);
  const stick: Run = () => (sink ^= yardstick(text));
  const reader: Run = reading;
  await stick();
  const stickCalls = await callsPerRun(stick);
  const first = (await cpuMsPerCall(reader, 1)) / (await cpuMsPerCall(stick, stickCalls));
  if (options.giveUpAbove !== undefined && first > options.giveUpAbove) return first;
  const readerCalls = await callsPerRun(reader);
  let stickMs = Infinity;
  let readerMs = Infinity;
  for (let round = 1; round <= upTo; round++) {
    stickMs = Math.min(stickMs, await cpuMsPerCall(stick, stickCalls));
    readerMs = Math.min(readerMs, await cpuMsPerCall(reader, readerCalls));
    if (round >= rounds && (round === upTo || !options.enough || options.enough(readerMs / stickMs))) break;
  }
  return readerMs / stickMs;
}
