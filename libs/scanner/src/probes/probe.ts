import { OwaspCategoryId, Severity } from '@gauntlet/domain';
import { DetectorName } from '../detectors/rules';
import { CanaryToken, canaryFor, canaryInstruction, fictionalName, literalCanary } from './canary';

/**
 * Categories whose probes ask the target to give away what it holds (its data, its prompt, what it
 * retrieves): their findings are disclosures, rated and filed by what they expose.
 */
const DISCLOSURE_CATEGORIES: ReadonlySet<string> = new Set<OwaspCategoryId>(['LLM02:2025', 'LLM07:2025', 'LLM08:2025']);

/**
 * One attack, written once, rendered per scan. `turns` are user messages sent in order in one
 * conversation; `{{canary}}` becomes an instruction to produce the probe's canary token,
 * `{{canary:literal}}` the token itself (quoted), and
 * `{{entity}}` a made-up name (for misinformation probes).
 */
export interface Probe {
  id: string;
  category: OwaspCategoryId;
  category_name: string;
  title: string;
  severity: Severity;
  technique: string;
  description: string;
  remediation: string;
  references: string[];
  turns: string[];
  detectors: DetectorName[];
  /** a custom probe's proof: this regular expression (case-insensitive) in an answer (the pattern detector) */
  pattern?: string;
}

/**
 * A probe discloses when its category is one of disclosure (LLM02, LLM07, LLM08), whoever wrote
 * it and whichever rules judge it: an output filter can hide its answer (so answer forms are worth
 * trying), and its answer may hold data that recurs even when no rule flagged it.
 */
export const discloses = (probe: { readonly category: string }): boolean => DISCLOSURE_CATEGORIES.has(probe.category);

/** A category we do not claim to test from outside, and why. */
export interface UntestableCategory {
  category: OwaspCategoryId;
  category_name: string;
  reason: string;
}

export interface RenderedProbe {
  probe: Probe;
  turns: string[];
  canary: CanaryToken;
  /** the fictional name substituted for {{entity}}, or null */
  entity: string | null;
}

export function renderProbe(probe: Probe, seed: string): RenderedProbe {
  const canary = canaryFor(seed, probe.id);
  const usesEntity = probe.turns.some((t) => t.includes('{{entity}}'));
  const entity = usesEntity ? fictionalName(seed, probe.id) : null;
  const turns = probe.turns.map((t) =>
    t.split('{{canary}}').join(canaryInstruction(canary)).split('{{canary:literal}}').join(literalCanary(canary)).split('{{entity}}').join(entity ?? ''),
  );
  return { probe, turns, canary, entity };
}
