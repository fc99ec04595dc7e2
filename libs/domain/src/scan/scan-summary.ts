import { type FindingExposure, type ProofKind, type Severity } from './vulnerability';
import type { ScanExposure } from './exposure';
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
  /** the findings that supersede fingerprints of the probe-and-category kind: "new" looks for those too (absent: none) */
  supersedes?: FindingSupersedes[];
  /** what leaked, once: the exposures of its findings (absent on summaries from before they were kept, and before one) */
  exposures?: ScanExposure[];
}

/** A finding's fingerprint and those it supersedes. */
export interface FindingSupersedes {
  fingerprint: string;
  supersedes: string[];
}

/** exposures a summary keeps: one per value, so far more than a scan shows */
export const MAX_SUMMARY_EXPOSURES = 200;

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
      // in its current shape, as the store's reading side gives every event (upcastEvent)
      const fingerprint: string = v.fingerprint;
      const known = summary.fingerprints ?? [];
      const kind: ProofKind | undefined = v.evidence?.proof?.matched?.kind;
      const proofs = kind ? { ...summary.proofs, [kind]: (summary.proofs?.[kind] ?? 0) + 1 } : summary.proofs;
      const superseded: string[] = v.supersedes;
      const supersedes = superseded.length ? [...(summary.supersedes ?? []).filter((s) => s.fingerprint !== fingerprint), { fingerprint, supersedes: superseded }] : summary.supersedes;
      const found: FindingExposure[] = v.exposures;
      const exposures = found.length
        ? [...(summary.exposures ?? []).filter((e) => e.vulnerability_id !== v.id), ...found.map((e) => ({ ...e, vulnerability_id: v.id as string }))].slice(0, MAX_SUMMARY_EXPOSURES)
        : summary.exposures;
      return {
        ...summary, [sev]: summary[sev] + 1, fingerprints: known.includes(fingerprint) ? known : [...known, fingerprint], ...(proofs && { proofs }),
        ...(supersedes && { supersedes }), ...(exposures && { exposures }),
      };
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
