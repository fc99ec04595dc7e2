import { diffBase, fingerprintOf, type Severity } from '@gauntlet/domain';
import type { SourceEvent, ScanSummary } from '../envelope';
import type { ScanSummaryDoc } from './model';

/** The small per-scan state webhooks need (pure): who owns it, its target, its counts so far. */
export function evolveScanSummary(doc: ScanSummaryDoc | null, event: SourceEvent): ScanSummaryDoc | null {
  const d = event.data ?? {};
  if (event.type === 'ScanRequested') {
    return {
      _id: d.scan_id, _rev: event.revision, account_id: d.account_id, target_id: d.target_id, target_name: d.target_name, status: 'pending',
      critical: 0, high: 0, medium: 0, low: 0, started_at: null, created_at: d.requested_at, fingerprints: [],
    };
  }
  if (!doc) return null;
  const next = { ...doc, _rev: event.revision };
  switch (event.type) {
    case 'ScanStarted':
      return { ...next, status: 'running', started_at: d.started_at };
    case 'VulnerabilityFound': {
      const v = d.vulnerability;
      const sev = v.severity as Severity;
      // findings recorded before fingerprints existed have the same one, derived
      const fingerprint: string = v.fingerprint ?? fingerprintOf(v.probe_id, v.category);
      const known = doc.fingerprints ?? [];
      return { ...next, [sev]: doc[sev] + 1, fingerprints: known.includes(fingerprint) ? known : [...known, fingerprint] };
    }
    case 'ScanCompleted':
      return { ...next, status: 'completed' };
    case 'ScanCompletedPartial':
      return { ...next, status: 'completed_partial' };
    case 'ScanFailed':
      return { ...next, status: 'failed' };
    case 'ScanCancelled':
      return { ...next, status: 'cancelled' };
    default:
      return null;
  }
}

export function toScanSummary(doc: ScanSummaryDoc, baseUrl: string, changes?: ScanSummary['changes']): ScanSummary {
  return {
    scan_id: doc._id, account_id: doc.account_id, target_id: doc.target_id, target_name: doc.target_name, status: doc.status,
    critical: doc.critical, high: doc.high, medium: doc.medium, low: doc.low, started_at: doc.started_at, base_url: baseUrl,
    ...(changes && { changes }),
  };
}

/**
 * At a scan's end: how many of its findings are new since the previous finished scan of the
 * target, among the summaries the relay holds (it reads the log in order, so a scan that finished
 * earlier is already there). The same base and rule as GET /api/scans/{id}/diff.
 */
export function newSince(doc: ScanSummaryDoc, sameTarget: readonly ScanSummaryDoc[]): NonNullable<ScanSummary['changes']> {
  const base = diffBase(
    { id: doc._id, status: doc.status, created_at: doc.created_at ?? '' },
    sameTarget.map((s) => ({ ...s, id: s._id, created_at: s.created_at ?? '' })),
  );
  const before = new Set(base?.fingerprints ?? []);
  return { base_scan_id: base?._id ?? null, new_findings: (doc.fingerprints ?? []).filter((f) => !before.has(f)).length };
}
