import { ApiFormat, BrowserSelectors, HttpFormat, Phase, ProbeAttempt, ProbeSelection, Profile, ProvenWeakness, RequestPlan, ScanBudget, ScanMode, SensitiveValue, Unfinished, Usage, Vulnerability } from '@gauntlet/domain';
import { ChatDriver } from '../chat-driver';
import { Attacker } from '../attacker/attacker';
import { Detector } from '../detectors/detector';
import { ScanTools } from '../agents/tool-set';
import type { CallbackSetup } from '../callbacks/planting';
import type { ScanMeters } from '../budget/meter';

/** The target as the engine needs it: TargetSettings with the API key already decrypted. */
export interface ScanTarget {
  id: string;
  name: string;
  url: string;
  scan_mode: ScanMode;
  api_format: ApiFormat | null;
  api_key: string | null;
  model: string | null;
  canaries: string[];
  /** what the owner knows is behind the bot, opened from its seal for the length of the scan */
  sensitive?: SensitiveValue[];
  browser: BrowserSelectors | null;
  http: HttpFormat | null;
  max_requests_per_second: number | null;
  /** custom request headers for a gateway, opened from their seal */
  headers?: Record<string, string> | null;
  stream?: boolean;
  /** what its agent is offered (MCP headers opened); absent: decoy where the API format takes tools */
  tools?: ScanTools | null;
}

/** What the scan knew as an attempt was recorded. */
export interface AttemptFacts {
  /** distinct weaknesses proven up to and including this attempt, grouped as the final findings are */
  findingsSoFar?: number;
  /** the weaknesses this attempt proved first */
  proved?: ProvenWeakness[];
  /** the time the work still planned should take at the target's throughput (absent: not known) */
  secondsLeft?: number;
  /** requests sent to the target so far, counted as its budget counts them (absent: not counted) */
  requestsSent?: number;
}

/** Where the engine reports what it does; a throw means "stop" (e.g. the scan was cancelled). */
export interface ScanSink {
  /** the plan the scan runs to, made as it starts (before its first request); absent: not kept */
  recordPlan?(plan: RequestPlan): Promise<void>;
  enterPhase(phase: Phase, progress: number): Promise<void>;
  recordAttempt(attempt: ProbeAttempt, progress: number, facts?: AttemptFacts): Promise<void>;
  recordVulnerability(v: Vulnerability): Promise<void>;
}

export type ScanOutcome =
  | { kind: 'completed' }
  | { kind: 'completed_partial'; reason: string }
  | { kind: 'stopped_at_budget'; unfinished: Unfinished }
  | { kind: 'failed'; reason: string }
  | { kind: 'cancelled' };

/** Bounds on every wait; defaults suit real targets, tests shorten them. */
export interface EngineLimits {
  /** longest wait for one answer (or for opening a conversation) */
  messageTimeoutMs: number;
  /** characters of each answer kept in the recorded attempt */
  maxRecordedChars: number;
  /** errors in a row after which the target counts as gone */
  maxConsecutiveErrors: number;
}

export const DEFAULT_LIMITS: EngineLimits = { messageTimeoutMs: 60_000, maxRecordedChars: 4_000, maxConsecutiveErrors: 5 };

export interface RunScanInput {
  scanId: string;
  target: ScanTarget;
  profile: Profile;
  /** only these categories or probes; absent: the profile's every probe */
  selection?: ProbeSelection;
  seed: string;
  driver: ChatDriver;
  sink: ScanSink;
  signal: AbortSignal;
  now: () => Date;
  judge?: Detector;
  /** an attacker model rewriting refused attacks (ATTACKER_URL); without one, nothing is contacted */
  attacker?: Attacker;
  limits?: Partial<EngineLimits>;
  /** a callback listener hears this scan: probes that plant addresses run, and requests to them prove findings */
  callbacks?: CallbackSetup;
  /** OUTBOUND_ALLOW_PRIVATE, for what the engine itself reaches (an MCP server listing the target's tools) */
  allowPrivate?: boolean;
  /**
   * what the scan may spend, and the meters counting it: the target's (the driver counts into it and
   * refuses what would cross the budget), the attacker's and the judge's apart. Absent: nothing is
   * budgeted, and nothing counted.
   */
  budget?: ScanBudget | null;
  meters?: ScanMeters;
  /** what is known of the target for the plan: the pace it was measured at, what its previous scan of this profile spent */
  known?: { pace?: { requests_per_second: number; source: 'measured' | 'previous_scan' } | null; previous?: Usage | null };
}

/** How much work each profile does. */
export interface ProfilePlan {
  /** conversations in flight at once (a model API's pacing starts here and adapts) */
  concurrency: number;
  /** most conversations in flight a model API's pacing may grow to */
  maxConcurrency: number;
  /** requests (user turns) escalation may send against categories that resisted in plain text */
  escalationBudget: number;
  /** single tactics tried in a category before stacks of them are (Infinity: never) */
  stackAfter: number;
  /** probes per resisting category that escalation rotates over */
  leadsPerCategory: number;
  /** rewrites an attacker model (when configured) may try per category still resisting, one request each */
  attackerRounds: number;
  /** requests amplifying what worked may send (finishing half-successes, breadth, variants) */
  amplifyBudget: number;
  /** converter chains tried per amplified probe */
  chainsPerProbe: number;
  /** longest stack of converters in one chain */
  maxChainLength: number;
  /** resisted probes in categories where nothing succeeded, amplified anyway (seeded sample) */
  coldSample: number;
}

/**
 * Standard spends at most 150 requests escalating on a target that resists everything: with the
 * 77 of its probe phase, about three times what a plain pass costs. Quick stays a smoke test;
 * deep goes wide (more probes per category, stacks early, a larger budget).
 */
/** how many conversations a driver for a scan of `profile` starts with and may grow to */
export const concurrencyFor = (profile: Profile) => ({ initial: PROFILE_PLANS[profile].concurrency, max: PROFILE_PLANS[profile].maxConcurrency });

export const PROFILE_PLANS: Record<Profile, ProfilePlan> = {
  quick: { concurrency: 2, maxConcurrency: 8, escalationBudget: 30, stackAfter: Infinity, leadsPerCategory: 1, attackerRounds: 1, amplifyBudget: 15, chainsPerProbe: 1, maxChainLength: 1, coldSample: 0 },
  standard: { concurrency: 4, maxConcurrency: 16, escalationBudget: 150, stackAfter: 8, leadsPerCategory: 3, attackerRounds: 3, amplifyBudget: 75, chainsPerProbe: 2, maxChainLength: 1, coldSample: 0 },
  deep: { concurrency: 6, maxConcurrency: 24, escalationBudget: 600, stackAfter: 4, leadsPerCategory: 6, attackerRounds: 6, amplifyBudget: 300, chainsPerProbe: 3, maxChainLength: 2, coldSample: 30 },
};
