import { DomainError } from '../decider';
import { normalizeTag } from '../target/tags';
import type { ScheduledTargetFacts } from './schedule';

/** a target as a deploy report needs it: its id and its tags */
export interface DeployedTarget {
  id: string;
  tags: readonly string[];
}

/** what a pipeline said it deployed: one target, or every target carrying a tag */
export interface DeployReport {
  account_id: string;
  target_id: string | null;
  tag: string | null;
}

/**
 * The targets a deploy report stands for (pure): the one target it names, which must be the
 * account's and live (another account's answers like an absent one), or every live target of
 * the account carrying the tag (none is no error: a pipeline may report before it tags).
 */
export function deployedTargets(
  report: DeployReport,
  facts: { target: (ScheduledTargetFacts & { tags: readonly string[] }) | null; tagged: readonly DeployedTarget[] },
): DeployedTarget[] {
  if ((report.target_id === null) === (report.tag === null)) throw new DomainError('invalid', 'Give either target_id or tag, not both.', { field: report.target_id ? 'tag' : 'target_id' });
  if (report.tag !== null) {
    if (!normalizeTag(report.tag)) throw new DomainError('invalid', 'tag is not a valid tag.', { field: 'tag' });
    return [...facts.tagged];
  }
  const t = facts.target;
  if (!t || t.deleted || t.account_id !== report.account_id) throw new DomainError('not_found', 'Target not found.');
  return [{ id: report.target_id!, tags: t.tags }];
}

/** a deploy schedule as the coverage policy reads it */
export interface DeploySchedule {
  id: string;
  target_id: string | null;
  tag: string | null;
  created_at: string;
}

/**
 * Which deploy schedules a deploy fires, and for which of the deployed targets (pure). A schedule
 * covers a target it names, or one carrying its tag. A deploy scans each target once: when
 * several schedules cover it, the oldest takes it (creation time, then id, so every api process
 * decides alike). Schedules left with no target do not fire.
 */
export function deployCoverage(schedules: readonly DeploySchedule[], deployed: readonly DeployedTarget[]): { schedule_id: string; target_ids: string[] }[] {
  const oldestFirst = [...schedules].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  const taken = new Set<string>();
  const out: { schedule_id: string; target_ids: string[] }[] = [];
  for (const s of oldestFirst) {
    const covered = deployed.filter((t) => !taken.has(t.id) && (s.target_id ? t.id === s.target_id : t.tags.includes(s.tag!)));
    covered.forEach((t) => taken.add(t.id));
    if (covered.length) out.push({ schedule_id: s.id, target_ids: covered.map((t) => t.id) });
  }
  return out;
}
