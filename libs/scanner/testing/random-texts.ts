import { seededRng } from '../src/converters/random';

/**
 * Short texts made of a few pieces (characters or fragments) at random, seeded: what a rewrite of a
 * pattern is compared on against the pattern it replaces (the same matches, in the same order).
 */
export function randomTexts(pieces: readonly string[], count = 3000, maxPieces = 24, seed = 'random-texts'): string[] {
  const rng = seededRng(seed, pieces.join('\u0000'));
  return Array.from({ length: count }, () => Array.from({ length: 1 + rng.int(maxPieces) }, () => rng.pick(pieces)).join(''));
}
