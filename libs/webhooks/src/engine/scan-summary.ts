import { diffBase, evolveScanSummary, findingHistory, type ScanSummaryState } from '@gauntlet/domain';
import type { SourceEvent, ScanSummary } from '../envelope';
import type { ScanSummaryDoc } from './model';

/**
 * The small per-scan state webhooks need, as a document: the domain's one fold of scan events
 * (evolveScanSummary), keyed by scan id with the revision of the last event it counts.
 */
export function evolveScanSummaryDoc(doc: ScanSummaryDoc | null, event: SourceEvent): ScanSummaryDoc | null {
  const next = evolveScanSummary(doc as (ScanSummaryDoc & ScanSummaryState) | null, event);
  if (!next) return null;
  return { ...next, _id: doc?._id ?? event.data.scan_id, _rev: event.revision } as ScanSummaryDoc;
}

export function toScanSummary(doc: ScanSummaryDoc, baseUrl: string, changes?: ScanSummary['changes']): ScanSummary {
  return {
    scan_id: doc._id, account_id: doc.account_id, target_id: doc.target_id, target_name: doc.target_name, status: doc.status,
    critical: doc.critical, high: doc.high, medium: doc.medium, low: doc.low, started_at: doc.started_at, base_url: baseUrl,
    ...(changes && { changes }),
    ...(doc.proofs && { proofs: doc.proofs }),
    ...(doc.exposures && { exposures: doc.exposures }),
  };
}

/**
 * At a scan's end: how many of its findings are new, i.e. never seen by an earlier finished scan
 * of the target, among the summaries the relay holds (it reads the log in order, so a scan that
 * finished earlier is already there). The same rule as GET /api/scans/{id}/diff (the domain's
 * findingHistory), without triage, which the relay does not read.
 */
export function newSince(doc: ScanSummaryDoc, sameTarget: readonly ScanSummaryDoc[]): NonNullable<ScanSummary['changes']> {
  const scan = { id: doc._id, status: doc.status, created_at: doc.created_at ?? '' };
  const candidates = sameTarget.map((s) => ({ ...s, id: s._id, created_at: s.created_at ?? '' }));
  const base = diffBase(scan, candidates);
  // every earlier finished scan is a base of something: those diffBase would consider
  const earlier = candidates.filter((s) => s.id !== scan.id && diffBase({ ...scan, created_at: scan.created_at, id: scan.id }, [s]) !== null);
  const { seen } = findingHistory(earlier.map((s) => ({ fingerprints: s.fingerprints ?? [], findings: s.supersedes ?? [] })));
  // a finding is new when neither its fingerprint nor one it supersedes (probe:category, recorded before a finding was a weakness) was seen
  const superseded = new Map((doc.supersedes ?? []).map((s) => [s.fingerprint, s.supersedes]));
  const isNew = (f: string) => !seen.has(f) && !(superseded.get(f) ?? []).some((o) => seen.has(o));
  return { base_scan_id: base?._id ?? null, new_findings: (doc.fingerprints ?? []).filter(isNew).length };
}
