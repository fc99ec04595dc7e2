import { Exposed, ProofKind, Turn, Verdict } from '@gauntlet/domain';
import { JudgeContext } from './judge-context';
import { ReadingKind } from './readings';

/**
 * What a rule checks: reads the target's answers (and what we sent) and says what they prove, or
 * nothing. `via` says how the answer was read back into plain text (null: as written).
 */
export type Check = (answer: string, prompts: string, context: JudgeContext, via?: ReadingKind | 'rendered' | null) => RuleVerdict | null;

/** How the rules detector runs a rule, besides on the probes that name it. */
export interface RuleOptions {
  /** run on every attempt, whatever the probe names (what the target holds must never appear) */
  readonly everyAttempt?: boolean;
  /** judge the answer only as it was sent, never a reading of it (base64, reversed, ...) */
  readonly asWritten?: boolean;
  /**
   * read all of an answer as written, however long, where other rules read its first JUDGED_CHARS
   * (readings.ts): the length it ran to, the told values looked for whole. Its work must be linear
   * in the answer, whatever the answer holds.
   */
  readonly wholeAnswer?: boolean;
  /** what its proof's text shows (`obedience` unless said: the answer did what we asked) */
  readonly proves?: ProofKind;
  /**
   * What the driver observed beyond the answers' text (a stream cut off, a page that rendered the
   * answer) that proves the weakness, judged once per conversation. `overTies`: on a tie it wins
   * over what the text showed.
   */
  readonly observed?: (turns: readonly Turn[], prompts: string, context: JudgeContext) => Observed[];
}

/** A verdict from what the driver observed, with its proof. */
export interface Observed {
  verdict: Verdict;
  overTies?: boolean;
}

/** One rule, callable as its check, with the name probes give it in `detectors` (rules/index.ts lists them). */
export type Rule<Name extends string = string> = Check & RuleOptions & { readonly detector: Name };

/**
 * A rule's verdict with `quote`: the exact text of the answer (as read) that shows it, for the
 * proof; and `proves`, what that text shows when it is not what the rule proves (a held value
 * told as a canary or as a sensitive value).
 */
export type RuleVerdict = Omit<Verdict, 'exposes'> & { quote?: string; proves?: ProofKind; exposes?: (Exposed & { quote?: string })[] };

/** A rule named `detector` that checks answers with `check`. */
export const rule = <Name extends string>(detector: Name, check: Check, options: RuleOptions = {}): Rule<Name> => Object.assign(check, options, { detector });

export const verdict = (detector: string, outcome: Verdict['outcome'], matched: string | null, confidence: number, quote?: string): RuleVerdict => ({
  detector, outcome, matched, confidence, ...(quote && { quote }),
});
export const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);
