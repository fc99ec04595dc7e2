import { Converter } from './converter';
import { base64, hex, homoglyphs, leetspeak, reversed, rot13Converter, zeroWidth } from './encodings';
import { authority, codeBlock, escalation, jsonEnvelope, rolePlay, splitTurns, splitVariables, translation } from './restructuring';

export * from './converter';
export * from './random';
export * from './encodings';
export * from './restructuring';

export const CONVERTERS: readonly Converter[] = [
  base64, rot13Converter, hex, reversed, leetspeak, homoglyphs, zeroWidth,
  splitVariables, splitTurns, rolePlay, authority, translation, escalation, codeBlock, jsonEnvelope,
];

export function converterById(id: string): Converter | undefined {
  return CONVERTERS.find((c) => c.id === id);
}
