import { probeOfFingerprint } from './weakness';

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
  /** every fingerprint a finished scan of the target found before this scan (and every one its findings supersede) */
  seen: ReadonlySet<string>;
  /** fingerprints of the finished scan before the base, each with the probes that showed it (null: there was none) */
  beforeBase: ReadonlyMap<string, readonly string[]> | null;
  /** fingerprints a person triaged fixed before this scan was requested: found again, they are new again */
  fixedBeforeScan: ReadonlySet<string>;
}

/** A finding as a diff compares it: its fingerprint, those it supersedes, the probes that showed it. */
export interface DiffedFinding {
  fingerprint: string;
  /** fingerprints of the probe-and-category kind its instances had (findings recorded before a finding was a weakness have none) */
  supersedes?: readonly string[];
}

/** what an earlier scan found, as the history reads it */
export interface EarlierScan {
  fingerprints: readonly string[];
  /** its findings with the fingerprints they supersede and their probes, when known (needed for the scan before the base) */
  findings?: readonly (DiffedFinding & { probe_id?: string; probes?: readonly string[] })[];
}

/** the probes a finding was shown by: those recorded, else the one a probe-and-category fingerprint names */
const probesOf = (f: { fingerprint: string; probe_id?: string; probes?: readonly string[] }): readonly string[] =>
  f.probes?.length ? f.probes : f.probe_id ? [f.probe_id] : [probeOfFingerprint(f.fingerprint)].filter((p): p is string => !!p);

/** every fingerprint findings carry: their own and those they supersede */
function present(findings: readonly DiffedFinding[]): Set<string> {
  const out = new Set<string>();
  for (const f of findings) {
    out.add(f.fingerprint);
    for (const s of f.supersedes ?? []) out.add(s);
  }
  return out;
}

/** The history of a target as its earlier finished scans (newest first, as diffBase orders them) and its triage make it. */
export function findingHistory(earlier: readonly EarlierScan[], fixedBeforeScan: ReadonlySet<string> = new Set()): TargetFindingHistory {
  const seen = new Set<string>();
  for (const s of earlier) {
    for (const f of s.fingerprints) seen.add(f);
    for (const f of present(s.findings ?? [])) seen.add(f);
  }
  const before = earlier[1];
  const beforeBase = before ? new Map(before.fingerprints.map((fp) => [fp, probesOf(before.findings?.find((f) => f.fingerprint === fp) ?? { fingerprint: fp })])) : null;
  return { seen, beforeBase, fixedBeforeScan };
}

/**
 * What changed, by fingerprint (pure). Where a model's randomness decides whether a weakness shows
 * in one scan, comparing with the one scan before calls noise a fix and then a new finding; so:
 * - new: never seen on the target before (neither its fingerprint nor one it supersedes), or seen,
 *   triaged fixed, and back;
 * - a weakness the base had, that this scan sent one of its probes for again (`testedProbes`: the
 *   probes it ran without an error; without it, every absent fingerprint counts as retested) and did
 *   not find, is not reproduced this time: neither fixed nor new when it shows again;
 * - fixed: missing from this scan and from the base, both retesting it, after a scan before had it.
 * A finding recorded before a finding was a weakness (`probe:category`) is still there when a
 * finding now supersedes its fingerprint: the diff across the change reports what changed, not the unit.
 */
export function diffFindings(
  current: readonly (DiffedFinding & { id: string })[],
  base: { id: string; findings: readonly (DiffedFinding & { probe_id: string; probes?: readonly string[] })[] } | null,
  testedProbes?: ReadonlySet<string>,
  history?: TargetFindingHistory,
): FindingChanges {
  const now = present(current);
  const before = base?.findings ?? [];
  const inBase = present(before);
  const seen = history?.seen ?? inBase;
  const changes: FindingChanges = { base_scan_id: base?.id ?? null, new: [], still_open: [], fixed: [], not_reproduced: [], not_retested: [] };
  for (const f of current) {
    const names = [f.fingerprint, ...(f.supersedes ?? [])];
    const back = names.some((n) => history?.fixedBeforeScan.has(n));
    (names.some((n) => seen.has(n)) && !back ? changes.still_open : changes.new).push(f.id);
  }
  const retested = (probes: readonly string[]) => !testedProbes || probes.length === 0 || probes.some((p) => testedProbes.has(p));
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const f of [...before].sort((a, b) => byName(a.fingerprint, b.fingerprint))) {
    if (now.has(f.fingerprint) || changes.not_reproduced.includes(f.fingerprint) || changes.not_retested.includes(f.fingerprint)) continue;
    (retested(probesOf(f)) ? changes.not_reproduced : changes.not_retested).push(f.fingerprint);
  }
  // gone twice in a row: the scan before the base had it, the base did not, nor does this one
  for (const [fp, probes] of [...(history?.beforeBase ?? [])].sort(([a], [b]) => byName(a, b))) {
    if (now.has(fp) || inBase.has(fp)) continue;
    if (retested(probes)) changes.fixed.push(fp);
  }
  return changes;
}
