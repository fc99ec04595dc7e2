/** Scan statuses whose findings a later scan is compared with: the scan ran and recorded what it found. */
export const DIFF_BASE_STATUSES = ['completed', 'completed_partial'] as const;

export interface ScanForDiff {
  id: string;
  status: string;
  created_at: string;
}

/**
 * The scan a scan is compared with: the latest scan of the same target requested before it that
 * finished with results (completed or completed_partial). Failed and cancelled scans are skipped:
 * they say nothing about what is open. Pass only scans of the same target.
 */
export function diffBase<S extends ScanForDiff>(scan: ScanForDiff, sameTarget: readonly S[]): S | null {
  let best: S | null = null;
  for (const s of sameTarget) {
    if (s.id === scan.id || !(DIFF_BASE_STATUSES as readonly string[]).includes(s.status)) continue;
    if (s.created_at > scan.created_at || (s.created_at === scan.created_at && s.id >= scan.id)) continue;
    if (!best || s.created_at > best.created_at || (s.created_at === best.created_at && s.id > best.id)) best = s;
  }
  return best;
}

export interface FindingChanges {
  base_scan_id: string | null;
  /** ids (in this scan) of findings whose fingerprint the base did not have: all of them when there is no base */
  new: string[];
  /** ids (in this scan) of findings the base had too */
  still_open: string[];
  /** fingerprints the base had that this scan tried again and did not find */
  fixed: string[];
  /** fingerprints the base had that this scan did not try (another profile, or it ended early): neither fixed nor open */
  not_retested: string[];
}

/**
 * What changed since the base scan, by fingerprint (pure). A weakness counts as fixed only when
 * this scan sent its probe again (`testedProbes`: the probes this scan ran without an error);
 * without it, every absent fingerprint counts as retested.
 */
export function diffFindings(
  current: readonly { id: string; fingerprint: string }[],
  base: { id: string; findings: readonly { fingerprint: string; probe_id: string }[] } | null,
  testedProbes?: ReadonlySet<string>,
): FindingChanges {
  const now = new Set(current.map((f) => f.fingerprint));
  const before = new Map((base?.findings ?? []).map((f) => [f.fingerprint, f.probe_id]));
  const changes: FindingChanges = { base_scan_id: base?.id ?? null, new: [], still_open: [], fixed: [], not_retested: [] };
  for (const f of current) (before.has(f.fingerprint) ? changes.still_open : changes.new).push(f.id);
  for (const [fp, probe] of [...before].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (now.has(fp)) continue;
    (!testedProbes || testedProbes.has(probe) ? changes.fixed : changes.not_retested).push(fp);
  }
  return changes;
}
