import { OwaspCategoryId, Severity } from '@gauntlet/domain';
import { DetectorName } from '../detectors/rules';
import { UserPattern, userPatternOrNull } from '../detectors/user-pattern';
import { AttackerMarks, attackerMarks, fillMarks } from '../agents/markers';
import { Poison } from '../agents/runtime';
import { ToolKind } from '../agents/tool-kinds';
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
  /** an attack on an agent's tools: run only on a target offered tools it can use, skipped (not passed) elsewhere */
  agent?: AgentAttack;
}

/**
 * What an agent probe needs and plants. `needs`: a tool of one of these kinds (`action`: any tool
 * that does more than read). `poison`: an indirect injection, the content the named kind of tool
 * returns (`{{attacker:...}}` and `{{canary}}` filled in like the turns); the user's turns only ask
 * the agent to read it. `{{tool}}` in a turn names the target's riskiest tool.
 */
export interface AgentAttack {
  needs: Array<ToolKind | 'action'>;
  poison?: Poison;
}

/**
 * A probe discloses when its category is one of disclosure (LLM02, LLM07, LLM08), whoever wrote
 * it and whichever rules judge it: an output filter can hide its answer (so answer forms are worth
 * trying), and its answer may hold data that recurs even when no rule flagged it.
 */
export const discloses = (probe: { readonly category: string }): boolean => DISCLOSURE_CATEGORIES.has(probe.category);

/** Probes of excessive agency and agent probes are offered the target's tools; others are only talked to. */
export const offersTools = (probe: { readonly category: string; readonly agent?: AgentAttack }): boolean => Boolean(probe.agent) || probe.category === 'LLM06:2025';

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
  /** an agent probe's attacker values (a call holding their token did what the attack asked) */
  marks?: AttackerMarks;
  /** an indirect probe's poisoned tool result, rendered */
  poison?: Poison;
  /** a custom probe's pattern, compiled (one that cannot compile was refused when the probe was written: never a reason to fail a scan) */
  pattern?: UserPattern;
}

export function renderProbe(probe: Probe, seed: string): RenderedProbe {
  const canary = canaryFor(seed, probe.id);
  const usesEntity = probe.turns.some((t) => t.includes('{{entity}}'));
  const entity = usesEntity ? fictionalName(seed, probe.id) : null;
  const marks = probe.agent ? attackerMarks(seed, probe.id) : undefined;
  const fill = (t: string) => {
    const text = t.split('{{canary}}').join(canaryInstruction(canary)).split('{{canary:literal}}').join(literalCanary(canary)).split('{{entity}}').join(entity ?? '');
    return marks ? fillMarks(text, marks) : text;
  };
  const turns = probe.turns.map(fill);
  const poison = probe.agent?.poison && { via: probe.agent.poison.via, content: fill(probe.agent.poison.content) };
  const pattern = probe.pattern ? userPatternOrNull(probe.pattern) : null;
  return { probe, turns, canary, entity, ...(marks && { marks }), ...(poison && { poison }), ...(pattern && { pattern }) };
}
