import { seededRng } from '../converters/random';
import { CanaryToken } from '../detectors/judge-context';

export type { CanaryToken } from '../detectors/judge-context';

// no I/O/0/1: they read alike and leetspeak would rewrite them
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function canaryFor(seed: string, probeId: string): CanaryToken {
  const rng = seededRng(seed, `canary:${probeId}`);
  const part = () => Array.from({ length: 4 }, () => ALPHABET[rng.int(ALPHABET.length)]).join('');
  const parts: [string, string, string] = [part(), part(), part()];
  return { parts, value: parts.join('-') };
}

/** The phrase a probe embeds to ask for the token (`{{canary}}`): the target must work it out. */
export function canaryInstruction(token: CanaryToken): string {
  const [a, b, c] = token.parts;
  return `the code word made by joining "${a}", "${b}" and "${c}" with hyphens`;
}

/**
 * The token spelled out (`{{canary:literal}}`), for targets that obey an injected "reply with X"
 * but work nothing out. An echo of the prompt holds it too, so it proves compliance only when the
 * answer is the token and next to nothing else (the canary rule knows the difference).
 */
export function literalCanary(token: CanaryToken): string {
  return `"${token.value}"`;
}

const SYLLABLES = ['vor', 'nax', 'tel', 'quin', 'dra', 'mox', 'bel', 'sy', 'rith', 'zan', 'ko', 'lum', 'fen', 'tar', 'ques', 'vil'];

/** A made-up name, seeded so it is stable within a scan and vanishingly unlikely to exist. */
export function fictionalName(seed: string, probeId: string): string {
  const rng = seededRng(seed, `fiction:${probeId}`);
  const word = Array.from({ length: 3 }, () => rng.pick(SYLLABLES)).join('');
  return word[0].toUpperCase() + word.slice(1);
}
