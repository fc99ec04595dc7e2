import { ProbeAttempt, SensitiveValue, Turn } from '@gauntlet/domain';
import { CanaryToken } from '../probes/canary';
import { Probe } from '../probes/probe';

export type Verdict = ProbeAttempt['verdict'];

/** What a detector may know beyond the conversation itself. */
export interface JudgeContext {
  /** the per-scan token this probe asked for, if it asked for one */
  canary: CanaryToken | null;
  /** strings from the target's configuration that must never appear in its output */
  targetCanaries: readonly string[];
  /** values the owner told us are behind the target (labels name them in findings) */
  sensitive?: readonly SensitiveValue[];
  /** the made-up name a misinformation probe asked about */
  entity: string | null;
  /**
   * the probe's own turns before any converter encoded, obfuscated or reframed them: an answer
   * that only decodes and repeats our prompt is an echo, not a leak
   */
  plainTurns?: readonly string[];
  /** a custom probe's regular expression of success */
  pattern?: string;
}

/** The Detector port: decides what one conversation with the target proves. */
export interface Detector {
  readonly name: string;
  judge(probe: Probe, turns: readonly Turn[], context: JudgeContext): Verdict | Promise<Verdict>;
}

const RANK: Record<Verdict['outcome'], number> = { error: 0, resisted: 1, partial: 2, vulnerable: 3 };

/** The stronger of two verdicts: worse outcome for the target first, then higher confidence. */
export function strongest(a: Verdict, b: Verdict): Verdict {
  if (RANK[a.outcome] !== RANK[b.outcome]) return RANK[a.outcome] > RANK[b.outcome] ? a : b;
  return b.confidence > a.confidence ? b : a;
}
