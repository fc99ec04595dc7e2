import { Rng, seededRng } from './random';

/**
 * A converter mutates a probe's user turns so the same attack reaches the target in another
 * form (encoded, obfuscated, split, reframed). Converters are pure given their Rng, so a
 * scan is reproducible from its seed, and they stack: the output of one feeds the next.
 */
export interface Converter {
  id: string;
  /** the family of evasion it represents, recorded on attempts and findings */
  technique: string;
  /**
   * Where it acts, which orders a stack: `answer` asks for the answer in another form (so the
   * request is encoded with the rest), `frame` wraps the request, `encode` rewrites its
   * characters, `conversation` spreads it over turns (so every turn it makes stays readable).
   */
  layer: ConverterLayer;
  convert(turns: readonly string[], rng: Rng, context: ConversionContext): string[];
}

export type ConverterLayer = 'answer' | 'frame' | 'encode' | 'conversation';
export const LAYER_ORDER: readonly ConverterLayer[] = ['answer', 'frame', 'encode', 'conversation'];

/** What a converter may know about the attack it converts. */
export interface ConversionContext {
  /** the OWASP category of the probe, e.g. "LLM07:2025": a multi-turn arc approaches its goal */
  category: string;
  /** what the target says it is for (topicsOf its first answer): a multi-turn arc talks about them first */
  topics?: readonly string[];
}

/** Applies the last turn only: earlier turns set context and are kept as they are. */
export function onLastTurn(fn: (text: string, rng: Rng) => string | string[]) {
  return (turns: readonly string[], rng: Rng): string[] => {
    const out = fn(turns[turns.length - 1], rng);
    return [...turns.slice(0, -1), ...(Array.isArray(out) ? out : [out])];
  };
}

/**
 * Runs `fn` on the text outside double-quoted spans. Probes spell canary parts in double
 * quotes; character-level obfuscation must not alter them or success could not be proven.
 */
export function outsideQuotes(text: string, fn: (chunk: string) => string): string {
  return text
    .split(/("[^"\n]*")/)
    .map((chunk, i) => (i % 2 === 1 ? chunk : fn(chunk)))
    .join('');
}

export function applyChain(chain: readonly Converter[], turns: readonly string[], seed: string, label: string, context: ConversionContext): string[] {
  return chain.reduce<string[]>((acc, c, i) => c.convert(acc, seededRng(seed, `${label}:${i}:${c.id}`), context), [...turns]);
}

/** A stack in the order its layers must apply, whatever order it was chosen in. */
export function layered(chain: readonly Converter[]): Converter[] {
  return [...chain].sort((a, b) => LAYER_ORDER.indexOf(a.layer) - LAYER_ORDER.indexOf(b.layer));
}
