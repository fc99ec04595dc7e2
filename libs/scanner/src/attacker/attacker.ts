import { VerdictOutcome } from '@gauntlet/domain';

/** One try of the adaptive attacker and what came of it: the feedback the next try learns from. */
export interface AttackTry {
  prompt: string;
  answer: string;
  outcome: VerdictOutcome;
}

/** What the attacker is asked to achieve, in words a model can act on. */
export interface AttackGoal {
  /** OWASP category, e.g. "LLM07:2025 System Prompt Leakage" */
  category: string;
  /** what success looks like (the probe's description) */
  objective: string;
  /** the attack as our catalogue writes it: the request the target refused */
  request: string;
}

/**
 * The Attacker port: a model that rewrites a refused attack, using the target's answers as
 * feedback (PAIR, Chao et al. 2023; TAP, Mehrotra et al. 2023). `next` answers the next prompt
 * to send, or null when it has nothing (unreachable, unreadable, declined).
 */
export interface Attacker {
  readonly name: string;
  next(goal: AttackGoal, tries: readonly AttackTry[], signal?: AbortSignal): Promise<string | null>;
}
