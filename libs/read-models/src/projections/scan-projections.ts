import { evolveScanSummary, isStream, partialCoverage, type ProbeSelection, type RequestPlan, type ScanBudget, type ScanSpending, type Unfinished, type ProvenWeakness, type FindingSupersedes, type ScanExposure, type CiGatePolicy, type ScanOrigin, type ScanSummaryState, type Phase, type ProbeAttempt, type Profile, type ScanEvent, type ScanScore, type ScanStatus, type Severity, type Vulnerability } from '@gauntlet/domain';
import type { RecordedEvent } from '@gauntlet/eventstore';
import { Projection } from './projection';

export interface ScanDoc {
  _id: string;
  _rev?: number;
  account_id: string;
  target_id: string;
  target_name: string;
  profile: Profile;
  origin: ScanOrigin;
  fail_threshold: number | null;
  /** CI scans requested with a gate other than the score alone (absent: fail on the score, no partial scans) */
  gate?: CiGatePolicy;
  status: ScanStatus;
  phase: Phase;
  progress: number;
  findings_so_far: number;
  /** the scanner's estimate of the time the planned work still takes, as of the last attempt (absent: not known) */
  seconds_left?: number | null;
  /** when that estimate was made */
  seconds_left_at?: string | null;
  severity_counts: Record<Severity, number>;
  probes_run: number;
  /** requests sent to the target (user turns), by phase: what the scan spent where */
  requests: Partial<Record<Phase, number>>;
  /** requests sent to the target as its budget counts them (retries and an agent's tool rounds too), as of the last attempt; absent before they were counted */
  requests_sent?: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** why it failed, ended partially or was cancelled ("cancelled by <actor id>": readers word it with the person's name, see cancellation in libs/domain) */
  reason: string | null;
  /** who cancelled it (`account:<id>`, `apikey:<id>`); absent otherwise and on documents projected before it was kept */
  cancelled_by?: string;
  score: ScanScore | null;
  /** the fingerprints of its findings (absent on documents projected before they were kept): the target's history for "new" */
  fingerprints?: string[];
  /** the findings that supersede probe-and-category fingerprints, with those: history for "new" too (absent: none) */
  supersedes?: FindingSupersedes[];
  /** what leaked, once: the values its findings exposed, each with the finding holding it (absent: none, or projected before they were kept) */
  exposures?: ScanExposure[];
  /** a completed_partial scan's share of the plan that ran (0..1), recorded with its ending; absent otherwise */
  coverage?: number | null;
  /** each weakness as the attempt that first proved it named it: what a running scan shows before its findings are written */
  proven?: (ProvenWeakness & { proven_at: string })[];
  /** what the scan said about itself, once each (an API that refused tools): its `scan-note` attempts (absent: none) */
  notes?: string[];
  /** only these categories or probes (absent: the profile's every probe) */
  selection?: ProbeSelection;
  /** what it may spend on its target, and the prices (absent: no budget) */
  budget?: ScanBudget;
  /** its plan, made as it started (absent: not started, or started before plans were recorded) */
  plan?: RequestPlan;
  /** what it spent, recorded as its run ended (absent: still running, or from before it was recorded) */
  spending?: ScanSpending;
  /** a scan stopped at its budget: what it did not finish */
  unfinished?: Unfinished;
  /** regressions recorded after the scan finished (absent: none) */
  regressions?: { reason: string; fingerprints: string[]; score: number; previous_score: number | null; detected_at: string }[];
  /**
   * requests to addresses its attempts planted (absent: none): how many, how many came after the
   * scan ended (no finding or score includes those), and the latest of those late ones
   */
  callback_hits?: { total: number; after_scan: number; late: LateCallbackHit[] };
  [k: string]: unknown;
}

/** A request to a planted address that came once its scan had ended, as the scan's detail lists it. */
export interface LateCallbackHit {
  attempt_id: string;
  method: string;
  path: string;
  query?: string;
  host?: string;
  source: string;
  at: string;
}
/** late hits listed per scan, the latest kept */
export const MAX_LATE_HITS_SHOWN = 20;

export type VulnerabilityDoc = Vulnerability & { _id: string; _rev?: number; scan_id: string; [k: string]: unknown };

type E = RecordedEvent & ScanEvent;

/** the probe id of an attempt that is the engine's note about the scan (libs/scanner engine/scan-run.ts) */
export const SCAN_NOTE = 'scan-note';

/** the scan's summary as the domain folds it, read from the document */
const summaryOf = (d: ScanDoc): ScanSummaryState => ({
  account_id: d.account_id, target_id: d.target_id, target_name: d.target_name, status: d.status, ...d.severity_counts, started_at: d.started_at, created_at: d.created_at,
  ...(d.fingerprints && { fingerprints: d.fingerprints }), ...(d.supersedes && { supersedes: d.supersedes }), ...(d.exposures && { exposures: d.exposures }),
});
/**
 * A finished scan's count is its findings: while it ran, the count was of weaknesses as first
 * proven, and two of those may turn out to be one (a datum that was a person's, pieces of one
 * credential) once every answer is in.
 */
const findingsAtEnd = (doc: ScanDoc, summary: ScanSummaryState | null): number => (summary && doc.fingerprints ? summary.critical + summary.high + summary.medium + summary.low : doc.findings_so_far);
const countsOf = (s: ScanSummaryState): Record<Severity, number> => ({ critical: s.critical, high: s.high, medium: s.medium, low: s.low });

export const scansProjection: Projection<ScanDoc> = {
  collection: 'scans',
  indexes: [['account_id', 'created_at'], ['account_id', 'target_id', 'created_at'], ['account_id', 'status', 'created_at'], ['status']],
  documentId: (e) => (isStream('scan', e.streamId) ? e.data.scan_id : null),
  apply(doc, event) {
    const e = event as E;
    // whose, which target, status, times and counts: the domain's one fold; the rest is this read model's own
    const summary = evolveScanSummary(doc && summaryOf(doc), e);
    if (e.type === 'ScanRequested') {
      const d = e.data;
      const s = summary!;
      return {
        _id: d.scan_id, _rev: e.revision, account_id: s.account_id, target_id: s.target_id, target_name: s.target_name, profile: d.profile,
        origin: d.origin, fail_threshold: d.fail_threshold, ...(d.gate && { gate: d.gate }), status: s.status, phase: 'queued', progress: 0, findings_so_far: 0,
        severity_counts: countsOf(s), probes_run: 0, requests: {}, created_at: d.requested_at, started_at: s.started_at,
        finished_at: null, reason: null, score: null, fingerprints: [], ...(d.selection && { selection: d.selection }), ...(d.budget && { budget: d.budget }),
      };
    }
    if (!doc) return null;
    const next = {
      ...doc, _rev: e.revision,
      ...(summary && {
        status: summary.status, started_at: summary.started_at, severity_counts: countsOf(summary), ...(summary.fingerprints && { fingerprints: summary.fingerprints }),
        ...(summary.supersedes && { supersedes: summary.supersedes }), ...(summary.exposures && { exposures: summary.exposures }),
      }),
    };
    switch (e.type) {
      case 'ScanStarted':
        return next;
      case 'ScanPlanned':
        return { ...next, plan: e.data.plan };
      case 'ScanSpent':
        return { ...next, spending: e.data.spending };
      case 'ScanPhaseEntered':
        return { ...next, phase: e.data.phase, progress: Math.max(doc.progress, e.data.progress) };
      case 'ProbeAttempted': {
        const { phase, turns, probe_id }: ProbeAttempt = e.data.attempt;
        // a note the engine recorded about the scan, not a conversation with the target
        if (probe_id === SCAN_NOTE) return { ...next, notes: [...(doc.notes ?? []), turns[0]?.content ?? ''] };
        const sent = turns.filter((t) => t.role === 'user').length;
        // documents projected before this field existed start counting from nothing
        const requests = { ...doc.requests, [phase]: (doc.requests?.[phase] ?? 0) + sent };
        // the running count the engine recorded with the attempt that proved each weakness
        const known = new Set((doc.proven ?? []).map((p) => p.fingerprint));
        const proven = (e.data.proved ?? ([] as ProvenWeakness[])).filter((p: ProvenWeakness) => !known.has(p.fingerprint)).map((p: ProvenWeakness) => ({ ...p, proven_at: e.data.attempted_at }));
        return {
          ...next, progress: Math.max(doc.progress, e.data.progress), probes_run: doc.probes_run + 1, requests, findings_so_far: Math.max(doc.findings_so_far, e.data.findings_so_far ?? 0),
          ...(proven.length && { proven: [...(doc.proven ?? []), ...proven] }),
          ...(e.data.seconds_left !== undefined && { seconds_left: e.data.seconds_left, seconds_left_at: e.data.attempted_at }),
          ...(e.data.requests_sent !== undefined && { requests_sent: Math.max(doc.requests_sent ?? 0, e.data.requests_sent) }),
        };
      }
      case 'VulnerabilityFound': {
        // the findings recorded at analyze are the same weaknesses already counted: the count only catches up (scans from before the running count)
        const recorded = summary ? summary.critical + summary.high + summary.medium + summary.low : doc.findings_so_far + 1;
        return { ...next, findings_so_far: Math.max(doc.findings_so_far, recorded) };
      }
      case 'ScanCompleted':
        return { ...next, phase: 'done', progress: 100, finished_at: e.data.finished_at, score: e.data.score, findings_so_far: findingsAtEnd(doc, summary) };
      case 'ScanCompletedPartial':
        // version 1 endings recorded no coverage: the progress before the ending is the same fact
        return {
          ...next, phase: 'done', progress: 100, finished_at: e.data.finished_at, score: e.data.score, reason: e.data.reason, coverage: partialCoverage(e.data, doc.progress),
          findings_so_far: findingsAtEnd(doc, summary),
          ...(e.data.unfinished && { unfinished: e.data.unfinished }),
        };
      case 'ScanFailed':
        return { ...next, phase: 'done', finished_at: e.data.finished_at, reason: e.data.reason };
      case 'ScanCancelled':
        return { ...next, phase: 'done', finished_at: e.data.finished_at, reason: `cancelled by ${e.data.cancelled_by}`, cancelled_by: e.data.cancelled_by };
      case 'ScanRegressed': {
        const { reason, fingerprints, score, previous_score, detected_at } = e.data;
        return { ...next, regressions: [...(doc.regressions ?? []), { reason, fingerprints, score, previous_score, detected_at }] };
      }
      case 'OutOfBandHit': {
        const { hit, after_scan } = e.data;
        const was = doc.callback_hits ?? { total: 0, after_scan: 0, late: [] };
        const late: LateCallbackHit = { attempt_id: hit.attempt_id, method: hit.method, path: hit.path, ...(hit.query && { query: hit.query }), ...(hit.host && { host: hit.host }), source: hit.source, at: hit.at };
        return {
          ...next,
          callback_hits: { total: was.total + 1, after_scan: was.after_scan + (after_scan ? 1 : 0), late: after_scan ? [...was.late, late].slice(-MAX_LATE_HITS_SHOWN) : was.late },
        };
      }
      default:
        return next;
    }
  },
};

export const vulnerabilitiesProjection: Projection<VulnerabilityDoc> = {
  collection: 'vulnerabilities',
  indexes: [['scan_id', 'found_at']],
  documentId: (e) => (e.type === 'VulnerabilityFound' ? `${e.data.scan_id}:${e.data.vulnerability.id}` : null),
  apply(doc, event) {
    const e = event as E;
    if (e.type !== 'VulnerabilityFound' || doc) return doc;
    return { ...e.data.vulnerability, _id: `${e.data.scan_id}:${e.data.vulnerability.id}`, _rev: e.revision, scan_id: e.data.scan_id };
  },
};
