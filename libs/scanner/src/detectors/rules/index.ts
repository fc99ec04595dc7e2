import { Rule } from '../rule';
import { agencyRule } from './agency';
import { canaryRule } from './canary';
import { consumptionRule } from './consumption';
import { markupRule } from './markup';
import { misinformationRule } from './misinformation';
import { overrideRule } from './override';
import { patternRule } from './pattern';
import { piiRule } from './pii';
import { secretsRule } from './secrets';
import { systemPromptRule } from './system-prompt';
import { targetCanaryRule } from './target-canary';
import { toolCallRule } from './tool-call';

/**
 * The rules a probe may name in `detectors`, one line each: a new rule is its own file in this
 * folder and one line here. Nothing here may import probes/ (probes/probe.ts takes its names from
 * this list).
 */
const ALL = [
  canaryRule,
  overrideRule,
  targetCanaryRule,
  secretsRule,
  piiRule,
  markupRule,
  systemPromptRule,
  consumptionRule,
  agencyRule,
  misinformationRule,
  patternRule,
  toolCallRule,
] as const;

/** A rule's name, as probes write it. */
export type DetectorName = (typeof ALL)[number]['detector'];
export const DETECTOR_NAMES: readonly DetectorName[] = ALL.map((r) => r.detector);
/** The rules run on every attempt whatever the probe names (the target-canary rule). */
export const EVERY_ATTEMPT: readonly DetectorName[] = ALL.filter((r) => r.everyAttempt).map((r) => r.detector);
/** The rules by name. */
export const RULES = Object.fromEntries(ALL.map((r) => [r.detector, r])) as { readonly [N in DetectorName]: Rule<N> };

export * from './agency';
export * from './canary';
export * from './consumption';
export * from './markup';
export * from './misinformation';
export * from './override';
export * from './pattern';
export * from './pii';
export * from './secrets';
export * from './system-prompt';
export * from './target-canary';
export * from './tool-call';
