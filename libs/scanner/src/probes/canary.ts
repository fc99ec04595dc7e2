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

const ASKED = /joining "([A-Z2-9]{4})", "([A-Z2-9]{4})" and "([A-Z2-9]{4})" with hyphens/;
const SPELLED = /"([A-Z2-9]{4})-([A-Z2-9]{4})-([A-Z2-9]{4})"/;

/**
 * The token a probe's prompt asked for, read back from the prompt as sent (a conversation judged
 * outside the scan that rendered it: `gauntlet judge` given the probe's id); null when the prompt
 * holds none as written (a converter encoded it).
 */
export function canaryAskedIn(prompts: string): CanaryToken | null {
  const m = ASKED.exec(prompts) ?? SPELLED.exec(prompts);
  if (!m) return null;
  const parts: [string, string, string] = [m[1], m[2], m[3]];
  return { parts, value: parts.join('-') };
}
