import { check, type Diagnostics } from 'recheck';

/** recheck's verdict on one pattern, as recorded */
export interface Verdict {
  status: 'safe' | 'vulnerable' | 'unknown';
  /** how it was checked: recheck's automaton or fuzzer, or each top-level alternative apart */
  checker: string;
  complexity?: string;
  degree?: number;
  /** recheck's attack string, as a JavaScript expression */
  attack?: string;
  error?: string;
}

/**
 * recheck's parameters: its defaults, ten seconds a pattern. Not its recall validation: that runs
 * each attack string against a clock, and on this busy machine it confirmed linear patterns too.
 */
export const RECHECK_PARAMS = { timeout: 10_000 } as const;

/**
 * recheck's verdict on a pattern as a search (tried from every position, as exec, test, match and
 * replace use it). Where its choice of checker gives up in time, the question is split: a pattern
 * `A|B` tried at a position costs what A costs there plus what B does, so it is linear when each
 * alternative is; then each part (or the whole, if it has one) goes to the fuzzer, which measures
 * instead of building the automaton a long counted repeat (`{20,}`) blows up.
 */
export async function verdictOf(source: string, flags: string): Promise<Verdict> {
  const whole = await decided(source, flags);
  if (whole.status !== 'unknown') return whole;
  const parts = topLevelAlternatives(source);
  if (parts.length === 1) return checked(source, flags, 'fuzz');
  const verdicts: Verdict[] = [];
  for (const part of parts) {
    const v = await decided(part, flags);
    verdicts.push(v.status === 'unknown' ? await checked(part, flags, 'fuzz') : v);
  }
  const worst = verdicts.find((v) => v.status === 'vulnerable') ?? verdicts.find((v) => v.status === 'unknown') ?? verdicts[0];
  return { ...worst, checker: `each of ${parts.length} alternatives (${[...new Set(verdicts.map((v) => v.checker))].join(', ')})` };
}

/**
 * recheck's own choice, and where that gives up in time, its automaton for six times as long: the
 * automaton's verdict follows from the pattern alone, the fuzzer's from timings (on a busy machine
 * it flagged linear patterns)
 */
async function decided(source: string, flags: string): Promise<Verdict> {
  const first = await checked(source, flags, 'auto');
  return first.status === 'unknown' && first.checker === 'automaton' ? checked(source, flags, 'automaton', 6) : first;
}

async function checked(source: string, flags: string, checker: 'auto' | 'automaton' | 'fuzz', longer = 1): Promise<Verdict> {
  const d: Diagnostics = await check(source, flags, { ...RECHECK_PARAMS, timeout: RECHECK_PARAMS.timeout * longer, checker });
  if (d.status === 'unknown') return { status: 'unknown', checker: d.checker ?? checker, error: d.error.kind };
  const v: Verdict = { status: d.status, checker: d.checker, complexity: d.complexity.type };
  if (d.status === 'vulnerable') {
    if (d.complexity.type === 'polynomial') v.degree = d.complexity.degree;
    v.attack = d.attack.pattern;
  }
  return v;
}

/** a source's top-level `|` alternatives (outside groups and classes) */
export function topLevelAlternatives(source: string): string[] {
  const parts: string[] = [];
  let [depth, inClass, start] = [0, false, 0];
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}
