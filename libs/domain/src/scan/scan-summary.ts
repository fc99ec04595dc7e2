import { fingerprintOf, type ProofKind, type Severity } from './vulnerability';
import type { ScanStatus } from './scan';

/**
 * What a scan's events say about it that every reader of them agrees on, folded in one place:
 * whose it is, its target, its status, when it was requested and started, its findings by
 * severity and their fingerprints. The scans read model and the webhook relay each keep this,
 * plus what only they need (the read model: phase, progress, score...; the relay: nothing more).
 */
export interface ScanSummaryState {
  account_id: string;
  target_id: string;
  target_name: string;
  status: ScanStatus;
  critical: number;
  high: number;
  medium: number;
  low: number;
  started_at: string | null;
  /** when the scan was requested (absent on relay summaries from before it was kept) */
  created_at?: string;
  /** the fingerprints of its findings so far (absent on relay summaries from before they were kept) */
  fingerprints?: string[];
  /** its findings by what proves them (absent on summaries from before it was kept, and before a finding) */
  proofs?: Partial<Record<ProofKind, number>>;
}

/** a scan event as the log hands it over (data not yet typed by the reader) */
export interface ScanSummaryEvent {
  type: string;
  data?: any;
}

/**
 * The summary after `event`, or null when the event changes nothing in it (or there is no
 * summary yet to change). Fields of `summary` beyond ScanSummaryState are kept as they are.
 */
export function evolveScanSummary<S extends ScanSummaryState>(summary: S | null, event: ScanSummaryEvent): S | ScanSummaryState | null {
  const d = event.data ?? {};
  if (event.type === 'ScanRequested') {
    return {
      account_id: d.account_id, target_id: d.target_id, target_name: d.target_name, status: 'pending',
      critical: 0, high: 0, medium: 0, low: 0, started_at: null, created_at: d.requested_at, fingerprints: [],
    };
  }
  if (!summary) return null;
  switch (event.type) {
    case 'ScanStarted':
      return { ...summary, status: 'running', started_at: d.started_at };
    case 'VulnerabilityFound': {
      const v = d.vulnerability;
      const sev = v.severity as Severity;
      // findings recorded before fingerprints existed have the same one, derived
      const fingerprint: string = v.fingerprint ?? fingerprintOf(v.probe_id, v.category);
      const known = summary.fingerprints ?? [];
      const kind: ProofKind | undefined = v.evidence?.proof?.matched?.kind;
      const proofs = kind ? { ...summary.proofs, [kind]: (summary.proofs?.[kind] ?? 0) + 1 } : summary.proofs;
      return { ...summary, [sev]: summary[sev] + 1, fingerprints: known.includes(fingerprint) ? known : [...known, fingerprint], ...(proofs && { proofs }) };
    }
    case 'ScanCompleted':
      return { ...summary, status: 'completed' };
    case 'ScanCompletedPartial':
      return { ...summary, status: 'completed_partial' };
    case 'ScanFailed':
      return { ...summary, status: 'failed' };
    case 'ScanCancelled':
      return { ...summary, status: 'cancelled' };
    default:
      return null;
  }
}
