import { RE2JS } from 're2js';

/** longest pattern a user may write: a pattern is a few dozen characters; this bounds compiling it */
export const MAX_USER_PATTERN_LENGTH = 1_000;
/**
 * Largest program a pattern may compile to. RE2 reads an answer once, but at each character it
 * follows every instruction still alive, up to all of them: `\w{100}Q` costs about 100 times `Q`
 * (half a second of CPU on the 64 KiB of an answer that is judged, `(?:\w{1000}Q|\w{999}R)` ten
 * times that). The patterns a probe proves success with (`RF-\d{4}-X`, a key's shape, a UUID) are
 * a few dozen instructions.
 */
export const MAX_USER_PATTERN_INSTRUCTIONS = 100;

/**
 * A pattern the user wrote (a custom probe's success.pattern), run by re2js, a port of RE2:
 * matching takes time linear in the answer whatever the pattern, so `^(a+)+$` cannot hang a
 * scan the way it hangs a backtracking engine. RE2 refuses what needs backtracking
 * (backreferences, lookaround): such a pattern is refused when it is written, never at scan time.
 * Matching is case-insensitive, as custom probe patterns always were.
 */
export interface UserPattern {
  /** the first match in `text`, or null */
  find(text: string): string | null;
}

/** why `source` cannot be a user pattern (one line, for the place it was written), or null */
export function userPatternProblem(source: string): string | null {
  return compile(source).problem;
}

/** the compiled pattern, or null when it cannot be one */
export const userPatternOrNull = (source: string): UserPattern | null => compile(source).pattern;

/** the compiled pattern; throws with userPatternProblem's line when it cannot be one */
export function compileUserPattern(source: string): UserPattern {
  const { pattern, problem } = compile(source);
  if (!pattern) throw new Error(problem!);
  return pattern;
}

/**
 * The first match of `re` in a text, as its matcher finds it. The matcher follows every state alive
 * at each character (up to the whole program: `\w{95}Q` follows 95 on a run of word characters);
 * the automaton steps once a character. So the automaton reads the text, and the matcher only where
 * the first match is, when a match is bounded in length; when it is not, only if there is one.
 */
function finder(re: RE2JS): (text: string) => string | null {
  const first = (text: string) => {
    const m = re.matcher(text);
    return m.find() ? m.group() : null;
  };
  const longest = longestMatch(re);
  // a match of unbounded length (or one that looks around it): the automaton says whether there is one, the matcher finds it
  if (longest === null) return (text) => (re.test(text) ? first(text) : null);
  // ends are looked for in windows of `step` that overlap by the longest match: the earliest end's window holds the first match
  const step = Math.max(4 * longest, 1024);
  return (text) => {
    for (let end = 0; end < text.length || end === 0; end += step) {
      const from = pairStart(text, Math.max(0, end - longest));
      const to = pairEnd(text, Math.min(text.length, end + step));
      if (!re.test(text.slice(from, to))) continue;
      // the first match starts at or after `from` (one that started before would end before this window) and is at most `longest` long
      return first(text.slice(from, pairEnd(text, Math.min(text.length, to + longest))));
    }
    return null;
  };
}

/** whether `at` falls between the two halves of a surrogate pair */
const splitsPair = (text: string, at: number) => at > 0 && at < text.length && isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1));
/** `at`, moved back off the second half of a surrogate pair */
const pairStart = (text: string, at: number) => (splitsPair(text, at) ? at - 1 : at);
/** `at`, moved on past the second half of a surrogate pair */
const pairEnd = (text: string, at: number) => (splitsPair(text, at) ? at + 1 : at);
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * The longest a match of `re` can be, in UTF-16 units (two per character), when it is bounded and
 * nothing in the pattern looks at the text around a match (no `^`, `$`, `\b`): then a match is the
 * same in a window of the text as in all of it. Else null. Read from the compiled program, which
 * re2js does not declare: a program of another shape is read as unbounded.
 */
function longestMatch(re: RE2JS): number | null {
  const prog = (re as unknown as { re2Input?: { prog?: { start?: unknown; numInst?: () => number; getInst?: (pc: number) => { op: number; out: number; arg: number } } } }).re2Input?.prog;
  if (!prog || typeof prog.start !== 'number' || typeof prog.getInst !== 'function' || typeof prog.numInst !== 'function') return null;
  const get = prog.getInst.bind(prog);
  const n = prog.numInst();
  // per instruction: the longest path to a match from it (-1: none), and whether it is being read (a loop)
  const longest = new Float64Array(n).fill(NaN);
  const reading = new Uint8Array(n);
  const from = (pc: number): number => {
    if (pc < 0 || pc >= n || reading[pc]) return Infinity;
    if (!Number.isNaN(longest[pc])) return longest[pc];
    reading[pc] = 1;
    const inst = get(pc);
    let length: number;
    if (inst.op === OP.ALT || inst.op === OP.ALT_MATCH) length = Math.max(from(inst.out), from(inst.arg));
    else if (inst.op === OP.CAPTURE || inst.op === OP.NOP) length = from(inst.out);
    else if (inst.op === OP.MATCH) length = 0;
    else if (inst.op === OP.FAIL) length = -1;
    else if (inst.op >= OP.RUNE && inst.op <= OP.RUNE_ANY_NOT_NL) {
      const rest = from(inst.out);
      length = rest < 0 ? -1 : rest + 2;
    } else length = Infinity; // looks around (an empty-width assertion, a lookbehind) or unknown
    reading[pc] = 0;
    return (longest[pc] = length);
  };
  const length = from(prog.start);
  return Number.isFinite(length) ? Math.max(0, length) : null;
}
/** re2js's instruction codes (Inst) */
const OP = { ALT: 1, ALT_MATCH: 2, CAPTURE: 3, FAIL: 5, MATCH: 6, NOP: 7, RUNE: 8, RUNE_ANY_NOT_NL: 11 };

function compile(source: string): { pattern: UserPattern; problem: null } | { pattern: null; problem: string } {
  if (source.length > MAX_USER_PATTERN_LENGTH) return { pattern: null, problem: `is longer than ${MAX_USER_PATTERN_LENGTH} characters` };
  try {
    const re = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
    const size = re.programSize();
    if (size > MAX_USER_PATTERN_INSTRUCTIONS) {
      return { pattern: null, problem: `compiles to ${size} instructions, more than ${MAX_USER_PATTERN_INSTRUCTIONS}, which would make reading every answer slow: count less (e.g. {1,40} rather than {1000})` };
    }
    return { pattern: { find: finder(re) }, problem: null };
  } catch (err) {
    const detail = String((err as Error).message ?? err).replace(/^error parsing regexp: /, '').replace(/`/g, '');
    const why = /\(\?<?[=!]|\\[1-9]/.test(source)
      ? 'uses backreferences or lookaround, which the linear-time engine (RE2 syntax) does not run'
      : 'is not a regular expression in RE2 syntax';
    return { pattern: null, problem: `${why} (${detail})` };
  }
}
