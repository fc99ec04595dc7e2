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
  /** ids (in this scan) of findings never seen on the target before (or triaged fixed and back): all of them on a first scan */
  new: string[];
  /** ids (in this scan) of findings seen on the target before */
  still_open: string[];
  /** fingerprints that this scan and the one before it both tried again and did not find, after earlier scans had them */
  fixed: string[];
  /** fingerprints the base had that this scan tried again and did not find this time: a model's chance, not yet a fix */
  not_reproduced: string[];
  /** fingerprints the base had that this scan did not try (another profile, or it ended early): neither fixed nor open */
  not_retested: string[];
}

/**
 * What the target's earlier finished scans say, for the "new" rule. Absent: only the base is known
 * (its findings are all the history there is).
 */
export interface TargetFindingHistory {
  /** every fingerprint a finished scan of the target found before this scan */
  seen: ReadonlySet<string>;
  /** fingerprints of the finished scan before the base (null: there was none) */
  beforeBase: ReadonlySet<string> | null;
  /** fingerprints a person triaged fixed before this scan was requested: found again, they are new again */
  fixedBeforeScan: ReadonlySet<string>;
}

/** The history of a target as its earlier finished scans (newest first, as diffBase orders them) and its triage make it. */
export function findingHistory(
  earlier: readonly { fingerprints: readonly string[] }[],
  fixedBeforeScan: ReadonlySet<string> = new Set(),
): TargetFindingHistory {
  const seen = new Set<string>();
  for (const s of earlier) for (const f of s.fingerprints) seen.add(f);
  return { seen, beforeBase: earlier[1] ? new Set(earlier[1].fingerprints) : null, fixedBeforeScan };
}

/**
 * What changed, by fingerprint (pure). Where a model's randomness decides whether a weakness shows
 * in one scan, comparing with the one scan before calls noise a fix and then a new finding; so:
 * - new: never seen on the target before, or seen, triaged fixed, and back;
 * - a weakness the base had, that this scan sent its probe for again (`testedProbes`: the probes
 *   it ran without an error; without it, every absent fingerprint counts as retested) and did not
 *   find, is not reproduced this time: neither fixed nor new when it shows again;
 * - fixed: missing from this scan and from the base, both retesting it, after a scan before had it.
 */
export function diffFindings(
  current: readonly { id: string; fingerprint: string }[],
  base: { id: string; findings: readonly { fingerprint: string; probe_id: string }[] } | null,
  testedProbes?: ReadonlySet<string>,
  history?: TargetFindingHistory,
): FindingChanges {
  const now = new Set(current.map((f) => f.fingerprint));
  const before = new Map((base?.findings ?? []).map((f) => [f.fingerprint, f.probe_id]));
  const seen = history?.seen ?? new Set(before.keys());
  const changes: FindingChanges = { base_scan_id: base?.id ?? null, new: [], still_open: [], fixed: [], not_reproduced: [], not_retested: [] };
  for (const f of current) {
    const back = history?.fixedBeforeScan.has(f.fingerprint) ?? false;
    (seen.has(f.fingerprint) && !back ? changes.still_open : changes.new).push(f.id);
  }
  const retested = (probe: string) => !testedProbes || testedProbes.has(probe);
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const [fp, probe] of [...before].sort(([a], [b]) => byName(a, b))) {
    if (now.has(fp)) continue;
    (retested(probe) ? changes.not_reproduced : changes.not_retested).push(fp);
  }
  // gone twice in a row: the scan before the base had it, the base did not, nor does this one
  for (const fp of [...(history?.beforeBase ?? [])].sort(byName)) {
    if (now.has(fp) || before.has(fp)) continue;
    const probe = fp.slice(0, fp.indexOf(':'));
    if (retested(probe)) changes.fixed.push(fp);
  }
  return changes;
}
