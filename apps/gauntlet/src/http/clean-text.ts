import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidationArguments } from 'class-validator';

export interface TextRules {
  /** free text that may span lines: tab, line feed and carriage return are allowed */
  multiline?: boolean;
}

// C0 and C1 controls and DEL; free text keeps \t \n \r
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// a high surrogate not followed by a low one, or a low one not preceded by a high one
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// the embeddings, overrides and isolates of "Trojan Source" (CVE-2021-42574), and the implicit marks
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/**
 * What is wrong with a name or a piece of free text a user gave us, or null. Such text is shown
 * back in the dashboard, reports, CSV, syslog and CEF: a NUL truncates it in some of them, an
 * unpaired surrogate cannot be encoded as UTF-8 at all, and a bidi control makes it read
 * differently from what it is. Blank means nothing but whitespace.
 */
export function textProblem(text: string, rules: TextRules = {}): string | null {
  if (text.trim() === '') return 'must not be blank';
  if ((rules.multiline ? CONTROLS_BUT_LINES : CONTROLS).test(text)) return 'must not contain control characters';
  if (UNPAIRED_SURROGATE.test(text)) return 'must not contain unpaired surrogates';
  if (BIDI_CONTROLS.test(text)) return 'must not contain bidirectional control characters';
  return null;
}

const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/**
 * A name or free text from a request: trimmed, then refused (400 naming the field) when blank or
 * when it holds controls, unpaired surrogates or bidi controls. Non-strings are left to the
 * property's other validators. `each` applies it to every string of an array.
 */
export function CleanText(rules: TextRules & { each?: boolean } = {}): PropertyDecorator {
  const problemOf = (value: unknown): string | null => {
    if (Array.isArray(value)) return value.map((v) => problemOf(v)).find((p) => p !== null) ?? null;
    return typeof value === 'string' ? textProblem(value, rules) : null;
  };
  return applyDecorators(
    Transform(({ value }) => (rules.each && Array.isArray(value) ? value.map(trim) : trim(value))),
    ValidateBy(
      {
        name: 'cleanText',
        constraints: [rules],
        validator: {
          validate: (value: unknown) => problemOf(value) === null,
          defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'text'} ${problemOf(args?.value) ?? 'must be clean text'}`,
        },
      },
      { each: rules.each },
    ),
  );
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time (what OpenAPI's `date-time` means) that names a real instant: the
 * fields in range, the day in its month. (class-validator's strict ISO 8601 check refuses years
 * before 100, and its loose one takes forms that are not RFC 3339.)
 */
export function isRfc3339(text: string): boolean {
  const m = RFC3339.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (m[8].length > 1 && (Number(m[10]) > 23 || Number(m[11]) > 59)) return false;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && date.getUTCHours() === hour && date.getUTCMinutes() === minute && second < 60;
}

/** an RFC 3339 date-time: see isRfc3339 */
export function IsRfc3339(): PropertyDecorator {
  return ValidateBy({
    name: 'isRfc3339',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isRfc3339(value),
      defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'value'} must be an RFC 3339 date-time, e.g. 2026-11-21T10:00:00Z`,
    },
  });
}
