import { SensitiveValue, ToolDefinition } from '@gauntlet/domain';
import type { Readings } from './readings';
import type { UserPattern } from './user-pattern';

/**
 * A per-scan, per-probe proof of success. The prompt only ever spells the parts separately
 * ("joining "QX7R", "M2PK" and "T9WD" with hyphens"); the joined value appears in an answer
 * only if the target carried out the instruction, never if it merely echoed the prompt.
 */
export interface CanaryToken {
  parts: [string, string, string];
  /** the parts joined with hyphens, as the instruction asks */
  value: string;
}

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
  /** a custom probe's regular expression of success, compiled once for the scan */
  pattern?: UserPattern;
  /** an attempt on an agent: the tools it was offered and the attack's own values */
  agent?: AgentContext;
  /**
   * the attempt's readings of its answers, made once for its verdict and its candidates (none:
   * each judgement makes its own)
   */
  readings?: Readings;
}

export interface AgentContext {
  tools: readonly ToolDefinition[];
  /** the token every attacker value of this probe carries (a mailbox, an IBAN, a record id) */
  token: string | null;
  /** the attack came through a tool's result (indirect), not from the user */
  indirect: boolean;
}
