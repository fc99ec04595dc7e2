import { RE2JS } from 're2js';
import { randomTexts } from '../../testing/random-texts';
import { compileUserPattern, MAX_USER_PATTERN_LENGTH, userPatternProblem } from './user-pattern';
import { patternRule } from './rules/pattern';

describe('a user pattern', () => {
  it('finds the first match, case-insensitively', () => {
    expect(compileUserPattern('RF-\\d{4}-X').find('the code is rf-2291-x, or RF-0000-X')).toBe('rf-2291-x');
    expect(compileUserPattern('(?<code>[a-z]+)@corp\\.example').find('write to Ops@corp.example')).toBe('Ops@corp.example');
    expect(compileUserPattern('RF-\\d{4}').find('nothing')).toBeNull();
  });

  it('answers a catastrophic pattern on a 28-character answer without backtracking', () => {
    // a backtracking engine takes tens of seconds here (2^27 paths); RE2 is linear in the answer
    expect(compileUserPattern('^(a+)+$').find(`${'a'.repeat(27)}!`)).toBeNull();
    expect(compileUserPattern('^(a|aa)+$').find('a'.repeat(28))).toBe('a'.repeat(28));
    expect(patternRule(`${'a'.repeat(27)}!`, 'say a', { canary: null, targetCanaries: [], entity: null, pattern: compileUserPattern('^(a+)+$') })).toBeNull();
  });

  it.each([
    ['(a)\\1', /backreferences or lookaround/],
    ['secret(?=:)', /backreferences or lookaround/],
    ['(?<!not )secret', /backreferences or lookaround/],
    ['foo(?!bar)', /backreferences or lookaround/],
    ['[a-', /not a regular expression in RE2 syntax/],
    ['x'.repeat(MAX_USER_PATTERN_LENGTH + 1), /longer than/],
    // half a minute on 50 KB of word characters before it was refused
    ['(?:\\w{1000}Q|\\w{999}R)', /compiles to 2004 instructions, more than 100, which would make reading every answer slow/],
    ['[a-z]{1,200}@', /compiles to \d+ instructions, more than 100/],
  ])('refuses %s with a line that says why', (source, why) => {
    expect(userPatternProblem(source)).toMatch(why);
    expect(() => compileUserPattern(source)).toThrow(why);
  });

  it('accepts what patterns are written with', () => {
    for (const ok of ['\\bsecret\\b', '\\p{L}+ code', 'sk-[A-Za-z0-9]{20,}', '(?i)token: \\S+', '^\\s*yes\\s*$', '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}', '[A-Za-z0-9]{48}']) expect(userPatternProblem(ok)).toBeNull();
  });

  it('finds what the matcher finds over the whole answer, for counted, bounded and unbounded patterns alike (seeded random answers)', () => {
    const patterns = ['\\w{5}Q', 'a{2,4}b?', '(?:ab|a)c{0,3}', 'x|\\d{3}', '[^a]{3}', '.{2}😀', 'é{2}|\\p{L}\\d', 'b*a{3}', '\\bab', 'a{3}$', '(?m)^b{2}', '', 'q?', '(a)(b)?', 'sk-[a-z0-9]{4,}'];
    const pieces = ['a', 'b', 'Q', 'q', 'c', '1', '2', ' ', '\n', 'é', 'É', '😀', '\ud83d', 'ab', 'aaaa', 'sk-', 'x'];
    // and long answers where a match is rare, so that it falls anywhere among the windows (and across their edges)
    const sparse = [...pieces, ...Array.from({ length: 6000 }, (_, i) => ['.', ' . ', '-', '\n\n', '😀'][i % 5])];
    const answers = [...randomTexts(pieces, 300, 3000, 'user-pattern'), ...randomTexts(sparse, 60, 8000, 'user-pattern sparse')];
    // and each pattern's matches placed across the places where the windows it is read in meet
    const across = (match: string) =>
      [1024, 2048].flatMap((edge) => Array.from({ length: 28 }, (_, k) => edge - 24 + k)).flatMap((at) => [`${'.'.repeat(at)}${match}${'.'.repeat(9)}`, `${'😀'.repeat(at >> 1)}${at % 2 ? '.' : ''}${match}😀`]);
    for (const source of patterns) {
      const pattern = compileUserPattern(source);
      const re = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
      const whole = (text: string) => {
        const m = re.matcher(text);
        return m.find() ? m.group() : null;
      };
      const matches = [...new Set(answers.map(whole).filter((m): m is string => !!m))].slice(0, 3);
      for (const answer of [...answers, ...matches.flatMap(across)]) expect([source, answer.length, pattern.find(answer)]).toEqual([source, answer.length, whole(answer)]);
    }
  });

  it('reads a counted pattern near its cap on an answer of word characters in one pass of the automaton', () => {
    // the NFA reads this at ~95 instructions a character (about half a second for 64 KiB); windows of the automaton read it once
    const pattern = compileUserPattern('\\w{95}Q');
    const words = 'a'.repeat(64 * 1024);
    expect(pattern.find(words)).toBeNull();
    expect(pattern.find(`${words}Q`)).toBe(`${'a'.repeat(95)}Q`);
  });
});
