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
        validator: {
          validate: (value: unknown) => problemOf(value) === null,
          defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'text'} ${problemOf(args?.value) ?? 'must be clean text'}`,
        },
      },
      { each: rules.each },
    ),
  );
}
