import { Exposed, Proof, ProofKind, Turn } from '@gauntlet/domain';
import { RuleVerdict } from './rule';
import { RULES } from './rules';
import { spanTolerant } from './text';

/** What a proof's text shows, for verdicts no rule of that name gives: a told value, what a page did. */
const BESIDE_RULES = new Map<string, ProofKind>([['sensitive', 'sensitive'], ['page-effects', 'markup']]);
const BY_RULE = new Map<string, ProofKind | undefined>(Object.values(RULES).map((r) => [r.detector, r.proves]));

/** What a proof says its text matched, by the detector that found it (a rule says it in its file). */
export const proofKindOf = (detector: string): ProofKind => BY_RULE.get(detector) ?? BESIDE_RULES.get(detector) ?? 'obedience';

/** Where a reading of a conversation came from: one answer (its turn), or all of them joined. */
export interface Source {
  text: string;
  /** index into the transcript of the answer, or null for the whole conversation */
  turn: number | null;
}

/**
 * The proof of a verdict: the quoted span in the answer (as read), the turn it is in. Offsets in
 * the joined conversation are taken back to the turn they fall in.
 */
export function proofFor(v: RuleVerdict, source: Source, via: string | null, turns: readonly Turn[]): Proof | undefined {
  const quote = v.quote ?? v.matched;
  if (!quote) return undefined;
  const at = spanTolerant(source.text, quote);
  if (!at) return undefined;
  let [start, end] = at;
  let turn = source.turn;
  if (turn === null) {
    // the joined conversation: answers in order, one newline between them
    let offset = 0;
    turn = turns.length - 1;
    for (let i = 0; i < turns.length; i++) {
      if (turns[i].role !== 'assistant') continue;
      const length = turns[i].content.length;
      if (!via && start >= offset && start <= offset + length) {
        turn = i;
        start -= offset;
        end = Math.min(end - offset, length);
        break;
      }
      offset += length + 1;
      turn = i;
    }
  }
  const matched: Proof['matched'] = { kind: proofKindOf(v.detector) };
  const label = v.exposes?.[0]?.label;
  if (label && (matched.kind === 'canary' || matched.kind === 'sensitive')) matched.label = label;
  return { turn, start, end, text: source.text.slice(start, end), matched, ...(via && { read_as: via }) };
}

/** Every told value the conversation gave away, once each (a whole match over a part), with its proof. */
export function mergeExposed(into: Map<string, Exposed>, found: RuleVerdict['exposes'], source: Source, via: string | null, turns: readonly Turn[]): void {
  for (const { quote, ...e } of found ?? []) {
    const prior = into.get(e.label);
    if (prior && (prior.full || !e.full)) continue;
    const kind: ProofKind = e.source === 'canary' ? 'canary' : 'sensitive';
    const proof = proofFor({ detector: kind === 'canary' ? 'target-canary' : 'sensitive', outcome: 'vulnerable', matched: null, confidence: 1, quote, exposes: [e] }, source, via, turns);
    into.set(e.label, { ...e, ...(proof && { proof }) });
  }
}
