import { ANSWER_FORMS } from './answer-forms';
import { Converter } from './converter';
import { CRESCENDO_ARCS } from './crescendo';
import { base64, hex, homoglyphs, leetspeak, reversed, rot13Converter, zeroWidth } from './encodings';
import { authority, codeBlock, jsonEnvelope, rolePlay, splitTurns, splitVariables, translation } from './restructuring';

/** Converters that change how the request reads (encodings, obfuscations, framings, splits). */
export const INPUT_CONVERTERS: readonly Converter[] = [
  base64, rot13Converter, hex, reversed, leetspeak, homoglyphs, zeroWidth,
  splitVariables, splitTurns, rolePlay, authority, translation, codeBlock, jsonEnvelope,
];

/** Every converter, by id: input-side, output-side (ANSWER_FORMS) and multi-turn (CRESCENDO_ARCS). */
export const CONVERTERS: readonly Converter[] = [...INPUT_CONVERTERS, ...CRESCENDO_ARCS, ...ANSWER_FORMS];

export function converterById(id: string): Converter | undefined {
  return CONVERTERS.find((c) => c.id === id);
}
