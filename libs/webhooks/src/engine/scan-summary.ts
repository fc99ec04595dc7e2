import type { Severity } from '@gauntlet/domain';
import type { SourceEvent, ScanSummary } from '../envelope';
import type { ScanSummaryDoc } from './model';

/** The small per-scan state webhooks need (pure): who owns it, its target, its counts so far. */
export function evolveScanSummary(doc: ScanSummaryDoc | null, event: SourceEvent): ScanSummaryDoc | null {
  const d = event.data ?? {};
  if (event.type === 'ScanRequested') {
    return { _id: d.scan_id, _rev: event.revision, account_id: d.account_id, target_id: d.target_id, target_name: d.target_name, status: 'pending', critical: 0, high: 0, medium: 0, low: 0, started_at: null };
  }
  if (!doc) return null;
  const next = { ...doc, _rev: event.revision };
  switch (event.type) {
    case 'ScanStarted':
      return { ...next, status: 'running', started_at: d.started_at };
    case 'VulnerabilityFound': {
      const sev = d.vulnerability.severity as Severity;
      return { ...next, [sev]: doc[sev] + 1 };
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

export function toScanSummary(doc: ScanSummaryDoc, baseUrl: string): ScanSummary {
  return {
    scan_id: doc._id, account_id: doc.account_id, target_id: doc.target_id, target_name: doc.target_name, status: doc.status,
    critical: doc.critical, high: doc.high, medium: doc.medium, low: doc.low, started_at: doc.started_at, base_url: baseUrl,
  };
}
