/**
 * Ways of reading target-written text that stay linear in its length whatever its characters.
 * A backtracking pattern such as `[a-z]+@` tries every start in a run of letters and reads the
 * rest of the run from each (quadratic); the finders instead start from what is rare (an `@`, a
 * `://`) and walk the runs around it, or skip past a stretch once one start in it has failed.
 * bench/hostile-answers.ts times every reader of answers on text built to break this.
 */

/**
 * A class of characters as a test on a char code: a table for ASCII, and for the rest the
 * expression's answer kept once asked (1 in, 2 out), in a table made on the first such code: a
 * hostile answer of millions of non-ASCII characters asks the expression once per distinct one.
 */
export function charClass(re: RegExp): (code: number) => boolean {
  const ascii = Uint8Array.from({ length: 128 }, (_, c) => (re.test(String.fromCharCode(c)) ? 1 : 0));
  let rest: Uint8Array | null = null;
  return (code) => {
    if (code < 128) return ascii[code] === 1;
    rest ??= new Uint8Array(65536);
    if (rest[code] === 0) rest[code] = re.test(String.fromCharCode(code)) ? 1 : 2;
    return rest[code] === 1;
  };
}

/** `text` without its trailing characters of class `drop`, read once from the end (`/[...]+$/` reads the run from every start). */
export function trimEndOf(text: string, drop: (code: number) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Where the run that `run` (a sticky pattern of one class, starred) matches from `at` ends. */
export function runEnd(text: string, at: number, run: RegExp): number {
  run.lastIndex = at;
  run.exec(text);
  return run.lastIndex;
}

/**
 * The matches of `pattern` (sticky) at the places `starts` (global) finds, left to right and not
 * overlapping, as `text.matchAll` of the pattern gives them, for a pattern whose failure at one
 * start proves that every start before `resume(at)` fails too (its first part reads a run to its
 * end whatever the start in it). Each stretch of text is then read once, where a backtracking
 * engine reads the rest of a run from every start in it. From `from` on (0 unless said).
 */
export function* stickyMatches(text: string, starts: RegExp, pattern: RegExp, resume: (at: number) => number, from = 0): Generator<RegExpExecArray> {
  starts.lastIndex = from;
  for (let start = starts.exec(text); start; start = starts.exec(text)) {
    pattern.lastIndex = start.index;
    const m = pattern.exec(text);
    if (m) {
      yield m;
      starts.lastIndex = Math.max(pattern.lastIndex, start.index + 1);
    } else starts.lastIndex = Math.max(resume(start.index), start.index + 1);
  }
}
