import { plainToInstance } from 'class-transformer';
import { IsOptional, IsString, validateSync } from 'class-validator';
import { CleanText, isRfc3339, textProblem } from './clean-text';

class Named {
  @IsString() @CleanText()
  name: string;

  @IsOptional() @IsString() @CleanText({ multiline: true })
  notes?: string;

  @IsOptional() @IsString({ each: true }) @CleanText({ each: true })
  tags?: string[];
}

const check = (plain: object) => {
  const dto = plainToInstance(Named, plain);
  return { dto, errors: validateSync(dto).flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`)) };
};

describe('names and free text are clean', () => {
  it('accepts ordinary text in any script, emoji included', () => {
    for (const ok of ['Support bot', 'Zoë’s bot', 'بوت الدعم', '客服机器人', 'bot 🤖', 'a\u200db']) expect(textProblem(ok)).toBeNull();
    expect(textProblem('line one\nline two\tand a tab', { multiline: true })).toBeNull();
  });

  it('refuses blank text, controls, unpaired surrogates and bidi controls', () => {
    expect(textProblem('   \t ')).toBe('must not be blank');
    expect(textProblem('')).toBe('must not be blank');
    expect(textProblem('a\u0000b')).toMatch(/control/);
    expect(textProblem('a\u0085b')).toMatch(/control/);
    expect(textProblem('two\nlines')).toMatch(/control/);
    expect(textProblem('nul\u0000', { multiline: true })).toMatch(/control/);
    expect(textProblem('half \ud83d pair')).toMatch(/surrogate/);
    expect(textProblem('\udc00 alone')).toMatch(/surrogate/);
    for (const bidi of ['\u202e', '\u202a', '\u2066', '\u2069', '\u200f', '\u061c']) expect(textProblem(`invoice${bidi}fdp.exe`)).toMatch(/bidirectional/);
  });

  it('trims what it keeps, and names the field it refuses', () => {
    expect(check({ name: '  Support bot \n', notes: ' a\nb ', tags: [' x ', 'y'] })).toEqual({ dto: expect.objectContaining({ name: 'Support bot', notes: 'a\nb', tags: ['x', 'y'] }), errors: [] });
    expect(check({ name: ' \u3000 ' }).errors).toEqual(['name: name must not be blank']);
    expect(check({ name: 'ok', tags: ['fine', 'evil\u202e'] }).errors).toEqual(['tags: tags must not contain bidirectional control characters']);
    expect(check({ name: 5 }).errors).toEqual(['name: name must be a string']);
  });
});

describe('timestamps are RFC 3339 instants', () => {
  it('takes RFC 3339 forms, any year, any offset', () => {
    for (const ok of ['2026-11-21T10:00:00Z', '2026-11-21t10:00:00.123456z', '0020-02-19T23:33:46.9Z', '2024-02-29T00:00:00+05:30', '1036-04-22T03:40:31.8-11:38']) expect(isRfc3339(ok)).toBe(true);
  });
  it('refuses other forms and days that do not exist', () => {
    for (const bad of ['2026-11-21', '2026-11-21T10:00Z', '2026-11-21 10:00:00Z', '2023-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-04-31T00:00:00Z', '2026-11-21T24:00:00Z', '2026-11-21T10:60:00Z', '2026-11-21T10:00:00+24:00', '20261121T100000Z']) expect(isRfc3339(bad)).toBe(false);
  });
});
