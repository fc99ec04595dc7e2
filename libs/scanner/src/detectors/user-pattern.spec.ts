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
});
