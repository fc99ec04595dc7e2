import { ActorDirectory, cancellation, ScanExposure, scanExposures, canonicalCategoryId, owaspCategory, diffFindings, FindingChanges, gradeLabel, partialCoverage, TargetFindingHistory, ProbeAttempt, RequestPlan, ScanBudget, ScanEvent, ScanScore, ScanSpending, ScanStatus, Severity, SEVERITIES, SpentBesidePlan, spentBesidePlan, TriageDecision, Unfinished, Vulnerability } from '@gauntlet/domain';
import { ComplianceEvidence, complianceEvidence } from './compliance';
import { ChainEvent } from './integrity';
import { attemptFailed, attemptRan, scoreExplanation } from './scoring';
import { applyTriage, scoreAfterTriage, triageCounts, TriageCounts, TriagedVulnerability } from './triage';

export interface ReportTarget {
  id?: string;
  name?: string;
  url?: string;
  scan_mode?: string;
}

export interface AttemptGroup {
  key: string;
  name?: string;
  run: number;
  failed: number;
  errors: number;
  /** failed / run, 0..1 (0 when nothing ran) */
  success_rate: number;
}

export interface WorkingTechnique {
  technique: string;
  converters: string[];
  categories: string[];
  /** attempts with this technique and converter chain that the target did not resist */
  succeeded: number;
  attempted: number;
}

/** The previous finished scan of the same target, as the report compares with it. */
export interface ReportBase {
  scan_id: string;
  finished_at: string | null;
  security_score: number | null;
  security_grade: string | null;
  findings: { fingerprint: string; probe_id: string; title: string; severity: Severity; category: string; probes?: string[]; supersedes?: string[] }[];
  /** the target's history before the scan, for the "new" rule (absent: the base is all the history there is) */
  history?: TargetFindingHistory;
  /** the findings of the finished scan before the base: what a fix (gone twice in a row) is named from */
  before_base_findings?: ReportBase['findings'];
}

/** A finding as the report shows it: triage as of the report, and whether it is new since the base scan. */
export type ReportFinding = TriagedVulnerability & { change?: 'new' | 'still_open' };

/**
 * Everything a report shows: the scan's events, plus what is known about it now (the target's
 * current details, its triage decisions, the previous scan it is compared with).
 */
/** A scan's spending as a report shows it: beside its plan, with its budget and what a budget stopped. */
export interface ReportSpending extends SpentBesidePlan {
  budget: ScanBudget | null;
  unfinished: Unfinished | null;
}

export interface ScanReport {
  /** 2: findings carry triage and change; `triage` and `changes` added. 3: a finding is a weakness with its instances; `exposures` and `score_explained` added */
  report_version: 3;
  generated_at: string;
  scan: {
    id: string;
    status: ScanStatus;
    profile: string | null;
    origin: string | null;
    fail_threshold: number | null;
    requested_at: string | null;
    started_at: string | null;
    finished_at: string | null;
    duration_seconds: number | null;
    /** why it failed, ended partially or was cancelled ("cancelled by ada@example.com") */
    reason: string | null;
    /** a cancelled scan: who cancelled it (`account:<id>`, `apikey:<id>`), else null */
    cancelled_by: string | null;
    /** a cancelled scan: who cancelled it as people read it (e-mail, or "API key <name>"), else null */
    cancelled_by_name: string | null;
    /** true when it ended completed_partial: the score and grade cover only part of the plan */
    partial: boolean;
    /** the share of the plan that ran (0..1): 1 for a completed scan, as recorded for a partial one, null otherwise */
    coverage: number | null;
    /** the grade as it must be shown, with the partial mark (null without a score) */
    grade_label: string | null;
  };
  target: { id: string | null; name: string | null; url: string | null; scan_mode: string | null };
  /** as recorded in ScanCompleted / ScanCompletedPartial ("as scanned"); null for a scan that did not finish with one */
  score: ScanScore | null;
  /** how the recorded score was reached, in one sentence (scoreExplanation); null without a score */
  score_explained: string | null;
  /**
   * what leaked, once: every value the target holds that came out, with the finding holding it
   * (credentials first: they must be rotated); empty for scans recorded before findings kept them
   */
  exposures: ScanExposure[];
  /** false for scans whose findings were recorded before they listed what they exposed: their `exposures` is not known, not empty */
  exposures_recorded: boolean;
  /** most severe first, then in the order found */
  vulnerabilities: ReportFinding[];
  /** the target's triage decisions as of generated_at, and the score without the findings they set aside */
  triage: { as_of: string; counts: TriageCounts; score_after_triage: ScanScore | null };
  /** what changed since the previous finished scan of the target; null when it was not looked up */
  changes: (FindingChanges & { base: Omit<ReportBase, 'findings' | 'scan_id' | 'history' | 'before_base_findings'> | null; fixed_findings: ReportBase['findings'] }) | null;
  attempts: {
    total: number;
    run: number;
    failed: number;
    errors: number;
    by_category: AttemptGroup[];
    by_technique: AttemptGroup[];
  };
  techniques_that_worked: WorkingTechnique[];
  /**
   * what the scan spent beside its plan, its budget and what a budget left unfinished (null: it
   * spent nothing recorded, as a scan still running or from before spending was recorded)
   */
  spending: ReportSpending | null;
  compliance: ComplianceEvidence;
  links: { scan_url: string; report_url: string };
}

const severityOrder = (v: Vulnerability) => SEVERITIES.indexOf(v.severity);

function group(attempts: readonly ProbeAttempt[], keyOf: (a: ProbeAttempt) => string, nameOf?: (key: string) => string | undefined): AttemptGroup[] {
  const groups = new Map<string, AttemptGroup>();
  for (const a of attempts) {
    const key = keyOf(a);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, ...(nameOf && { name: nameOf(key) }), run: 0, failed: 0, errors: 0, success_rate: 0 }));
    if (!attemptRan(a)) g.errors++;
    else {
      g.run++;
      if (attemptFailed(a)) g.failed++;
    }
  }
  for (const g of groups.values()) g.success_rate = g.run > 0 ? g.failed / g.run : 0;
  return [...groups.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * The report model from a scan's history read in its events' current shapes (as the event store's
 * reading side gives them); `recorded`, the same history as written, is what the integrity chain
 * covers and what tells findings recorded before they listed their exposures (absent: `history` is
 * as written, none of it older than its shape).
 */
export function buildScanReport(
  history: readonly ChainEvent[],
  context: {
    recorded?: readonly ChainEvent[];
    target?: ReportTarget;
    baseUrl: string;
    generatedAt: string;
    /** the target's triage decisions (latest per fingerprint) */
    triage?: readonly TriageDecision[];
    /** the scan this one is compared with: null when it is the target's first, undefined when not looked up */
    base?: ReportBase | null;
    /** the e-mails and API key names of the actors the history names (who cancelled it) */
    actors?: ActorDirectory;
  },
): ScanReport {
  let scanId = '';
  let status: ScanStatus = 'pending';
  let score: ScanScore | null = null;
  const scan: Omit<ScanReport['scan'], 'id' | 'status' | 'duration_seconds' | 'partial' | 'grade_label'> = {
    profile: null, origin: null, fail_threshold: null, requested_at: null, started_at: null, finished_at: null, reason: null, coverage: null,
    cancelled_by: null, cancelled_by_name: null,
  };
  /** the last progress recorded: what a version 1 partial ending's coverage was */
  let progress = 0;
  let targetId: string | null = null;
  let targetName: string | null = null;
  let budget: ScanBudget | null = null;
  let plan: RequestPlan | null = null;
  let spent: ScanSpending | null = null;
  let unfinished: Unfinished | null = null;
  const attempts: ProbeAttempt[] = [];
  const vulnerabilities: Vulnerability[] = [];
  const seenVulnerabilities = new Set<string>();
  const written = context.recorded ?? history;
  /** a finding recorded before findings listed what they exposed: its `exposures` was not known, not empty */
  const unlisted = written.some((e) => e.type === 'VulnerabilityFound' && !Array.isArray((e.data as { vulnerability: Partial<Vulnerability> }).vulnerability.exposures));

  for (const recorded of history) {
    const e = { type: recorded.type, data: recorded.data } as ScanEvent;
    switch (e.type) {
      case 'ScanRequested':
        scanId = e.data.scan_id;
        targetId = e.data.target_id;
        targetName = e.data.target_name;
        scan.profile = e.data.profile;
        scan.origin = e.data.origin;
        scan.fail_threshold = e.data.fail_threshold;
        scan.requested_at = e.data.requested_at;
        budget = e.data.budget ?? null;
        break;
      case 'ScanPlanned':
        plan = e.data.plan;
        break;
      case 'ScanSpent':
        spent = e.data.spending;
        break;
      case 'ScanStarted':
        status = 'running';
        scan.started_at = e.data.started_at;
        break;
      case 'ProbeAttempted':
        attempts.push(e.data.attempt);
        progress = Math.max(progress, e.data.progress);
        break;
      case 'ScanPhaseEntered':
        progress = Math.max(progress, e.data.progress);
        break;
      case 'VulnerabilityFound':
        if (!seenVulnerabilities.has(e.data.vulnerability.id)) {
          seenVulnerabilities.add(e.data.vulnerability.id);
          vulnerabilities.push(e.data.vulnerability);
        }
        break;
      case 'ScanCompleted':
        status = 'completed';
        score = e.data.score;
        scan.finished_at = e.data.finished_at;
        scan.coverage = 1;
        break;
      case 'ScanCompletedPartial':
        status = 'completed_partial';
        score = e.data.score;
        scan.reason = e.data.reason;
        scan.finished_at = e.data.finished_at;
        scan.coverage = partialCoverage(e.data, progress);
        unfinished = e.data.unfinished ?? null;
        break;
      case 'ScanFailed':
        status = 'failed';
        scan.reason = e.data.reason;
        scan.finished_at = e.data.finished_at;
        break;
      case 'ScanCancelled': {
        status = 'cancelled';
        scan.finished_at = e.data.finished_at;
        // the log names the actor by id; people read the e-mail or the key's name
        const who = cancellation(e.data.cancelled_by, context.actors ?? { emails: new Map(), apiKeys: new Map() });
        Object.assign(scan, who);
        break;
      }
    }
  }
  if (!scanId) {
    const fromStream = history[0]?.streamId.replace(/^scan-/, '') ?? '';
    scanId = fromStream;
  }

  const start = scan.started_at ?? scan.requested_at;
  const duration_seconds =
    start && scan.finished_at ? Math.max(0, Math.round((Date.parse(scan.finished_at) - Date.parse(start)) / 1000)) : null;

  // stable: equal severities keep the order they were found in
  const ordered = vulnerabilities.map((v, i) => [v, i] as const).sort((a, b) => severityOrder(a[0]) - severityOrder(b[0]) || a[1] - b[1]).map(([v]) => v);
  let triaged: ReportFinding[] = applyTriage(ordered, context.triage ?? [], scan.requested_at ?? context.generatedAt, context.generatedAt);

  let changes: ScanReport['changes'] = null;
  if (context.base !== undefined) {
    const base = context.base;
    const tested = new Set(attempts.filter(attemptRan).map((a) => a.probe_id));
    const diff = diffFindings(triaged, base && { id: base.scan_id, findings: base.findings }, tested, base?.history);
    const isNew = new Set(diff.new);
    // new objects: a finding may be the very object the history holds, whose digest must not move
    triaged = triaged.map((v) => ({ ...v, change: isNew.has(v.id) ? 'new' : 'still_open' }));
    const fixed = new Set(diff.fixed);
    changes = {
      ...diff,
      base: base && { finished_at: base.finished_at, security_score: base.security_score, security_grade: base.security_grade },
      fixed_findings: (base?.before_base_findings ?? []).filter((f) => fixed.has(f.fingerprint)),
    };
  }

  const worked = new Map<string, WorkingTechnique>();
  for (const a of attempts) {
    if (!attemptRan(a)) continue;
    const key = JSON.stringify([a.technique, a.converters]);
    let w = worked.get(key);
    if (!w) worked.set(key, (w = { technique: a.technique, converters: [...a.converters], categories: [], succeeded: 0, attempted: 0 }));
    w.attempted++;
    if (attemptFailed(a)) {
      w.succeeded++;
      const category = canonicalCategoryId(a.category);
      if (!w.categories.includes(category)) w.categories.push(category);
    }
  }

  const base = context.baseUrl.replace(/\/+$/, '');
  const t = context.target ?? {};
  return {
    report_version: 3,
    generated_at: context.generatedAt,
    scan: {
      id: scanId, status, duration_seconds, ...scan, partial: status === 'completed_partial',
      grade_label: score && gradeLabel(score.grade, { partial: status === 'completed_partial', coverage: scan.coverage }),
    },
    target: { id: t.id ?? targetId, name: t.name ?? targetName, url: t.url ?? null, scan_mode: t.scan_mode ?? null },
    score,
    score_explained: score && scoreExplanation(score),
    exposures: scanExposures(triaged),
    exposures_recorded: !unlisted,
    vulnerabilities: triaged,
    triage: { as_of: context.generatedAt, counts: triageCounts(triaged), score_after_triage: score && scoreAfterTriage(score, attempts, triaged) },
    changes,
    attempts: {
      total: attempts.length,
      run: attempts.filter(attemptRan).length,
      failed: attempts.filter((a) => attemptRan(a) && attemptFailed(a)).length,
      errors: attempts.filter((a) => !attemptRan(a)).length,
      by_category: group(attempts, (a) => canonicalCategoryId(a.category), (k) => owaspCategory(k)?.name),
      by_technique: group(attempts, (a) => a.technique),
    },
    spending: spent && { ...spentBesidePlan(spent, plan, budget), budget, unfinished },
    techniques_that_worked: [...worked.values()]
      .filter((w) => w.succeeded > 0)
      .map((w) => ({ ...w, categories: w.categories.sort() }))
      .sort((a, b) => b.succeeded - a.succeeded || a.technique.localeCompare(b.technique)),
    compliance: complianceEvidence({ scan_id: scanId, attempts, vulnerabilities }, written, context.generatedAt),
    links: { scan_url: `${base}/api/scans/${scanId}`, report_url: `${base}/api/scans/${scanId}/report` },
  };
}
