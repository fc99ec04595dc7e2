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

function compile(source: string): { pattern: UserPattern; problem: null } | { pattern: null; problem: string } {
  if (source.length > MAX_USER_PATTERN_LENGTH) return { pattern: null, problem: `is longer than ${MAX_USER_PATTERN_LENGTH} characters` };
  try {
    const re = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
    const size = re.programSize();
    if (size > MAX_USER_PATTERN_INSTRUCTIONS) {
      return { pattern: null, problem: `compiles to ${size} instructions, more than ${MAX_USER_PATTERN_INSTRUCTIONS}, which would make reading every answer slow: count less (e.g. {1,40} rather than {1000})` };
    }
    return {
      pattern: {
        find: (text) => {
          const m = re.matcher(text);
          return m.find() ? m.group() : null;
        },
      },
      problem: null,
    };
  } catch (err) {
    const detail = String((err as Error).message ?? err).replace(/^error parsing regexp: /, '').replace(/`/g, '');
    const why = /\(\?<?[=!]|\\[1-9]/.test(source)
      ? 'uses backreferences or lookaround, which the linear-time engine (RE2 syntax) does not run'
      : 'is not a regular expression in RE2 syntax';
    return { pattern: null, problem: `${why} (${detail})` };
  }
}
