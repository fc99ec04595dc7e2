import { SEVERITIES, Severity } from '../scan/vulnerability';
import type { ScanStatus } from '../scan/scan';
import type { TriageState } from '../triage/triage';

/** A scan as the fleet view weighs it. */
export interface FleetScan {
  id: string;
  status: ScanStatus;
  created_at: string;
  finished_at: string | null;
  score: { overall_score: number; grade: string } | null;
}

export interface FleetStanding {
  /** the newest scan that finished with results (completed or partial) */
  last: FleetScan | null;
  /** the one before it */
  previous: FleetScan | null;
  /** last score minus previous score: negative is worse; null without two finished scans */
  change: number | null;
  /** a scan of the target is pending or running */
  scanning: boolean;
}

const FINISHED: readonly ScanStatus[] = ['completed', 'completed_partial'];

/** Where a target stands, from its scans newest first (pure). Failed and cancelled scans have no grade to compare. */
export function fleetStanding(scansNewestFirst: readonly FleetScan[]): FleetStanding {
  const finished = scansNewestFirst.filter((s) => FINISHED.includes(s.status) && s.score);
  const [last = null, previous = null] = finished;
  return {
    last,
    previous,
    change: last && previous ? last.score!.overall_score - previous.score!.overall_score : null,
    scanning: scansNewestFirst.some((s) => s.status === 'pending' || s.status === 'running'),
  };
}

/** Findings still open after triage (not a false positive, an accepted risk or fixed), by severity. */
export function openBySeverity(findings: readonly { severity: Severity; triage_state?: TriageState | null }[]): Record<Severity, number> {
  const counts = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) if (!f.triage_state || f.triage_state === 'open') counts[f.severity]++;
  return counts;
}

/** The next due time among the schedules that cover the target, by id or by one of its tags (null: none). */
export function nextScheduledRun(target: { id: string; tags: readonly string[] }, schedules: readonly { target_id: string | null; tag: string | null; next_due_at: string | null }[]): string | null {
  const due = schedules
    .filter((s) => s.next_due_at && (s.target_id === target.id || (s.tag !== null && target.tags.includes(s.tag))))
    .map((s) => s.next_due_at!)
    .sort();
  return due[0] ?? null;
}
