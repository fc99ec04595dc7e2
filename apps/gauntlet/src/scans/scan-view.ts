import type { ScanDoc, VulnerabilityDoc } from '@gauntlet/read-models';
import { exposureOrder, proofLinesOf, proofShows, proofWhere, provenByAction, spentBesidePlan, type Cancellation, type Evidence, type ScanExposure, type Vulnerability } from '@gauntlet/domain';
import type { ScanStatusView, ScanSummaryView } from './dto';

/** whether the scan stopped before its plan ran, and what share ran: a partial grade is never shown without them */
export const partiality = (d: Pick<ScanDoc, 'status' | 'coverage'>): { partial: boolean; coverage: number | null } =>
  d.status === 'completed_partial' ? { partial: true, coverage: d.coverage ?? null } : { partial: false, coverage: d.status === 'completed' ? 1 : null };

/**
 * A scan as people read it (ScanReader.named): a cancelled one says who cancelled it by e-mail or
 * API key name, with the id beside it; the read model holds only the id.
 */
export type NamedScanDoc = ScanDoc & Partial<Cancellation> & { readonly [named]: true };
declare const named: unique symbol;

/** the scanner's estimate of the time left, counted down from when it was made; null when not running or not known */
function secondsLeft(d: Pick<ScanDoc, 'status' | 'seconds_left' | 'seconds_left_at'>, now: number): number | null {
  if (d.status !== 'running' || d.seconds_left == null || !d.seconds_left_at) return null;
  const since = Math.max(0, (now - Date.parse(d.seconds_left_at)) / 1000);
  return Math.max(0, Math.round(d.seconds_left - since));
}

export const statusView = (d: NamedScanDoc, now = Date.now()): ScanStatusView => ({
  status: d.status, progress: d.progress, phase: d.phase, findings_so_far: d.findings_so_far, seconds_left: secondsLeft(d, now), reason: d.reason, ...partiality(d),
  ...(d.cancelled_by_name && { cancelled_by: d.cancelled_by, cancelled_by_name: d.cancelled_by_name }),
});

export const summaryView = (d: NamedScanDoc): ScanSummaryView => ({
  id: d._id, target_id: d.target_id, target_name: d.target_name, profile: d.profile, origin: d.origin, ...statusView(d),
  created_at: d.created_at, started_at: d.started_at, finished_at: d.finished_at, severity_counts: d.severity_counts,
  probes_run: d.probes_run, requests: { total: Object.values(d.requests ?? {}).reduce((a, b) => a + b, 0), by_phase: d.requests ?? {}, sent: d.requests_sent ?? null }, security_score: d.score?.overall_score ?? null, security_grade: d.score?.grade ?? null,
  notes: d.notes ?? [],
});

/**
 * evidence as the API shows it: its proof also says, in the words every view uses, what it shows,
 * where, whether it is an act of the target's, and beside the facts it records each fact made of
 * them on its one line (PROOF_FACTS: the `request` an out-of-band proof's method, host, path and query are)
 */
function evidenceView(e: Evidence): Evidence {
  if (!e?.proof) return e;
  const { matched } = e.proof;
  const lines = Object.fromEntries(proofLinesOf(matched.kind).flatMap((f) => (f.parts ? [[f.name, f.read(matched)]] : [])));
  return { ...e, proof: { ...e.proof, matched: { ...matched, ...lines }, shows: proofShows(matched), where: proofWhere(e.proof), act: provenByAction(matched) } as Evidence['proof'] };
}

export function vulnerabilityView(d: VulnerabilityDoc): Vulnerability {
  const { _id, _rev, scan_id, ...v } = d as VulnerabilityDoc & Vulnerability;
  return { ...v, evidence: evidenceView(v.evidence), variants: (v.variants ?? []).map((x) => ({ ...x, evidence: evidenceView(x.evidence) })) } as Vulnerability;
}

/** what leaked, once: each value the scan's findings exposed, in the order every view lists them (none for scans recorded before findings kept them) */
export const exposuresView = (d: Pick<ScanDoc, 'exposures'>): ScanExposure[] => [...(d.exposures ?? [])].sort(exposureOrder);

/** a scan's plan, what it spent beside it, its budget and what a budget left unfinished (the detail's own section) */
export const spendingView = (d: Pick<ScanDoc, 'plan' | 'spending' | 'budget' | 'unfinished'>) => ({
  plan: d.plan ?? null,
  spent: d.spending ? spentBesidePlan(d.spending, d.plan, d.budget) : null,
  budget: d.budget ?? null,
  unfinished: d.unfinished ?? null,
});
