import { createHash } from 'node:crypto';
import { bounded, exposureLine, exposureOrder, gradeLabel, partialCoverage, proofFacts, proofFactsOf, proofShows, type AgentAlert, type ScanExposure, type OwaspCategoryId, type Proof, type ProofKind, type ScanScore, type Severity, type Vulnerability, type WebhookEventType } from '@gauntlet/domain';

/** Every event a webhook can carry: the contract's five, the Live Agent Monitor's alert, and the test ping. */
export type WebhookEventName = WebhookEventType | 'agent.alert' | 'ping';

/** The contract's `data` for every scan.* and vulnerability.critical event. */
export interface ScanEventData {
  scan_id: string;
  target_id: string;
  target_name: string;
  status: string;
  /** null until the scan has been scored (scan.started, vulnerability.critical, scan.failed): never a made-up number */
  security_score: number | null;
  security_grade: string | null;
  total_findings: number;
  critical: number;
  high: number;
  medium: number;
  low: number;
  report_url: string;
  /** additive: when the scan started / finished, when known (OCSF start_time / end_time) */
  started_at?: string | null;
  finished_at?: string | null;
  /** scan.failed and scan.completed_partial: why; scan.regressed: found_again or score_drop */
  reason?: string;
  /**
   * additive, scan.completed and scan.completed_partial: findings whose fingerprint the previous
   * finished scan of the target did not have (all of them for a target's first scan)
   */
  new_findings?: number;
  /** additive, with new_findings: the scan they are counted against (null for a target's first) */
  base_scan_id?: string | null;
  /** additive, scan.completed and scan.completed_partial: whether the scan stopped before its plan ran */
  partial?: boolean;
  /** additive, with partial: the share of the plan that ran (0..1; 1 for a completed scan; null for a partial one recorded before it was) */
  coverage?: number | null;
  /** scan.regressed: the scan's score and the previous finished scan's (null for a first scan) */
  score?: number;
  previous_score?: number | null;
  /** scan.regressed, found_again: the weaknesses triaged fixed that the scan found again */
  fingerprints?: string[];
  /** additive, vulnerability.critical only */
  vulnerability?: {
    id: string;
    title: string;
    category: OwaspCategoryId;
    category_name: string;
    severity: Severity;
    probe_id: string;
    /** additive: what proves it (absent on findings recorded before proofs existed) */
    proof?: FindingProof;
  };
  /**
   * additive, every scan event once a finding is recorded: the findings by what proves them
   * (`tool_call: 2` are findings an agent's call proves, `out_of_band: 1` one a callback request proves)
   */
  findings_by_proof?: Partial<Record<ProofKind, number>>;
  /**
   * additive, scan.completed and scan.completed_partial: what leaked, once: each value the target
   * holds that came out (masked, never the value), the finding holding it, and `rotate` for a credential
   */
  exposures?: ScanExposure[];
}

/**
 * A finding's proof as a SIEM reads it: the kind, the sentence every view says it in, and its
 * kind's own facts (PROOF_FACTS in the domain: for a tool call `tool` and `arguments`, on one bounded
 * line; for an out-of-band request `method`, `path`, `host`, `query`, `at`), each a string.
 */
export interface FindingProof {
  kind: ProofKind;
  shows: string;
  [fact: string]: string;
}

/** the proof a webhook carries: bounded, one line, never the whole conversation */
export function findingProof(p: Proof | undefined): FindingProof | undefined {
  if (!p?.matched) return undefined;
  // its kind's own facts, each under its declared name (PROOF_FACTS)
  return { kind: p.matched.kind, shows: proofShows(p.matched), ...Object.fromEntries(proofFacts(p.matched)) };
}

/** the proof's own facts as a SIEM format names its fields: `proof_tool`, `proof_method`, ... (PROOF_FACTS' order) */
export function proofFactFields(p: FindingProof): [field: string, value: string | undefined][] {
  return proofFactsOf(p.kind).map((f) => [`proof_${f.name}`, p[f.name]]);
}

/** `tool_call=2,out_of_band=1`: the tally as one SIEM field */
export function proofTally(counts: ScanEventData['findings_by_proof']): string | undefined {
  const parts = Object.entries(counts ?? {}).filter(([, n]) => (n ?? 0) > 0).map(([k, n]) => `${k}=${n}`);
  return parts.length ? parts.join(',') : undefined;
}

export interface AgentAlertData {
  target_id: string;
  target_name: string;
  alert: AgentAlert;
}

export interface PingData {
  webhook_id: string;
  message: string;
}

interface EnvelopeOf<E extends WebhookEventName, D> {
  /** stable id derived from the source event: the same domain event always yields the same id */
  id: string;
  event: E;
  /** ISO 8601 UTC */
  timestamp: string;
  data: D;
}

export type ScanEnvelope = EnvelopeOf<WebhookEventType, ScanEventData>;
export type AgentAlertEnvelope = EnvelopeOf<'agent.alert', AgentAlertData>;
export type PingEnvelope = EnvelopeOf<'ping', PingData>;
export type WebhookEnvelope = ScanEnvelope | AgentAlertEnvelope | PingEnvelope;

/**
 * What the relay knows about a scan when one of its events arrives (kept in
 * `webhook_scan_summaries`, already including the event being mapped).
 */
export interface ScanSummary {
  scan_id: string;
  account_id: string;
  target_id: string;
  target_name: string;
  status: string;
  critical: number;
  high: number;
  medium: number;
  low: number;
  started_at: string | null;
  /** PUBLIC_BASE_URL, for report_url */
  base_url: string;
  /** at the scan's end: what is new since the previous finished scan of the target */
  changes?: { base_scan_id: string | null; new_findings: number };
  /** the findings so far by what proves them */
  proofs?: Partial<Record<ProofKind, number>>;
  /** what leaked, once (the exposures of its findings) */
  exposures?: ScanExposure[];
}

/** The shape of a domain event the mapping needs (a RecordedEvent fits). */
export interface SourceEvent {
  streamId: string;
  revision: number;
  type: string;
  data: any;
  recordedAt: string;
}

/** The Live Agent Monitor's alert event (monitor-<targetId> stream), as libs/domain records it. */
export interface AgentAlertRaisedData {
  account_id: string;
  target_id: string;
  target_name: string;
  alert: AgentAlert;
}
export const AGENT_ALERT_RAISED = 'AgentAlertRaised';

/** `evt_` + 32 hex of sha256(stream, revision, event name): redelivery of a domain event gives the same id */
export function envelopeId(streamId: string, revision: number, event: WebhookEventName): string {
  return 'evt_' + createHash('sha256').update(`${streamId}\n${revision}\n${event}`).digest('hex').slice(0, 32);
}

export function reportUrl(baseUrl: string, scanId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/scans/${encodeURIComponent(scanId)}/report`;
}

function scanData(scan: ScanSummary, over: Partial<ScanEventData> & { status: string }): ScanEventData {
  const counts = { critical: scan.critical, high: scan.high, medium: scan.medium, low: scan.low };
  return {
    scan_id: scan.scan_id,
    target_id: scan.target_id,
    target_name: scan.target_name,
    security_score: null,
    security_grade: null,
    total_findings: counts.critical + counts.high + counts.medium + counts.low,
    ...counts,
    report_url: reportUrl(scan.base_url, scan.scan_id),
    started_at: scan.started_at,
    finished_at: null,
    ...(proofTally(scan.proofs) && { findings_by_proof: { ...scan.proofs } }),
    ...over,
  };
}

/** what leaked, once, as a finished scan's payload carries it (absent when nothing did) */
function leaked(scan: ScanSummary): Partial<ScanEventData> {
  return scan.exposures?.length ? { exposures: [...scan.exposures].sort(exposureOrder) } : {};
}

/** A finished scan's counts come from its recorded score (computed once), not from our running tally. */
function scored(score: ScanScore): Partial<ScanEventData> {
  return {
    security_score: score.overall_score,
    security_grade: score.grade,
    critical: score.critical_count,
    high: score.high_count,
    medium: score.medium_count,
    low: score.low_count,
    total_findings: score.critical_count + score.high_count + score.medium_count + score.low_count,
  };
}

/**
 * Domain event -> the webhook envelopes it causes (pure). ScanCancelled and every other event
 * yield none: the contract has no event type for them.
 */
export function toWebhookEvents(event: SourceEvent, scan: ScanSummary | null): WebhookEnvelope[] {
  const d = event.data ?? {};
  const env = <E extends WebhookEventName, D>(name: E, timestamp: string, data: D): EnvelopeOf<E, D> => ({
    id: envelopeId(event.streamId, event.revision, name),
    event: name,
    timestamp: new Date(timestamp || event.recordedAt).toISOString(),
    data,
  });

  if (event.type === AGENT_ALERT_RAISED) {
    const a = d as AgentAlertRaisedData;
    return [env('agent.alert', a.alert.occurred_at, { target_id: a.target_id, target_name: a.target_name, alert: a.alert })];
  }
  if (!scan) return [];
  switch (event.type) {
    case 'ScanStarted':
      return [env('scan.started', d.started_at, scanData(scan, { status: 'running', started_at: scan.started_at ?? d.started_at }))];
    case 'ScanCompleted':
      return [env('scan.completed', d.finished_at, scanData(scan, { status: 'completed', ...scored(d.score), ...scan.changes, finished_at: d.finished_at, partial: false, coverage: 1, ...leaked(scan) }))];
    case 'ScanCompletedPartial': {
      // version 1 endings recorded no coverage, and the relay keeps no progress: null says "not known"
      const coverage = partialCoverage(d, null);
      return [env('scan.completed_partial', d.finished_at, scanData(scan, { status: 'completed_partial', ...scored(d.score), ...scan.changes, finished_at: d.finished_at, reason: d.reason, partial: true, coverage, ...leaked(scan) }))];
    }
    case 'ScanRegressed': {
      const { reason, fingerprints, score, previous_score, detected_at } = d as { reason: string; fingerprints: string[]; score: number; previous_score: number | null; detected_at: string };
      return [env('scan.regressed', detected_at, scanData(scan, { status: scan.status, security_score: score, reason, fingerprints, score, previous_score }))];
    }
    case 'ScanFailed':
      return [env('scan.failed', d.finished_at, scanData(scan, { status: 'failed', finished_at: d.finished_at, reason: d.reason }))];
    case 'VulnerabilityFound': {
      const v = d.vulnerability as Vulnerability;
      if (v.severity !== 'critical') return [];
      return [
        env('vulnerability.critical', v.found_at, scanData(scan, {
          status: 'running',
          vulnerability: { id: v.id, title: v.title, category: v.category, category_name: v.category_name, severity: v.severity, probe_id: v.probe_id, ...(findingProof(v.evidence?.proof) && { proof: findingProof(v.evidence?.proof) }) },
        })),
      ];
    }
    default:
      return [];
  }
}

/** The grade as every format must show it: a partial scan's grade carries the mark and its coverage. */
export function shownGrade(d: Pick<ScanEventData, 'security_grade' | 'partial' | 'coverage'>): string | null {
  return d.security_grade === null ? null : gradeLabel(d.security_grade, { partial: d.partial === true, coverage: d.coverage ?? null });
}

/**
 * What leaked, in one bounded sentence the same in every SIEM format (the payload's `exposures`
 * holds each entry): `Leaked 2 values the target holds; rotate 1 credential: records database URL
 * (a credential, whole, said in an answer): postgres://clinic_admin:***@…, in 4 conversations; rotate it; ...`.
 * Undefined when nothing leaked.
 */
export function exposureSummary(d: Pick<ScanEventData, 'exposures'>, max = 600): string | undefined {
  const list = d.exposures ?? [];
  if (!list.length) return undefined;
  const rotate = list.filter((e) => e.rotate).length;
  const head = `Leaked ${list.length === 1 ? '1 value' : `${list.length} values`} the target holds${rotate ? `; rotate ${rotate === 1 ? '1 credential' : `${rotate} credentials`}` : ''}`;
  return bounded(`${head}: ${list.map(exposureLine).join('; ')}`, max);
}

/** one sentence for a regression, the same in every format */
export function regressionMessage(d: ScanEventData): string {
  const was = d.previous_score === null || d.previous_score === undefined ? '' : ` (previous ${d.previous_score})`;
  return d.reason === 'found_again'
    ? `Gauntlet scan of ${d.target_name} found again ${d.fingerprints?.length ?? 0} weakness(es) triaged as fixed; score ${d.score}${was}`
    : `Gauntlet scan of ${d.target_name} dropped to score ${d.score}${was}, more than the target's regression threshold`;
}

/** The test event `POST /api/webhooks/{id}/test` sends. */
export function pingEnvelope(webhookId: string, now: Date = new Date(), nonce = now.getTime().toString(36)): PingEnvelope {
  return {
    id: 'evt_ping_' + createHash('sha256').update(`${webhookId}\n${nonce}`).digest('hex').slice(0, 24),
    event: 'ping',
    timestamp: now.toISOString(),
    data: { webhook_id: webhookId, message: 'Gauntlet webhook test: if you can read this, deliveries reach you.' },
  };
}

export type EventSeverity = Severity | 'info';
const LEVELS: readonly EventSeverity[] = ['info', 'low', 'medium', 'high', 'critical'];
const atLeast = (s: EventSeverity, floor: EventSeverity): EventSeverity => (LEVELS.indexOf(s) >= LEVELS.indexOf(floor) ? s : floor);

/** The worst finding so far (info when none). */
export function worstSeverity(d: { critical: number; high: number; medium: number; low: number }): EventSeverity {
  if (d.critical > 0) return 'critical';
  if (d.high > 0) return 'high';
  if (d.medium > 0) return 'medium';
  if (d.low > 0) return 'low';
  return 'info';
}

/**
 * The one severity model every format maps from (OCSF severity_id, CEF severity, syslog PRI), so a
 * SIEM reading any of them triages an event the same way:
 * - a finding or an alert: its own severity;
 * - a finished scan: its worst finding (info when clean);
 * - a partial scan: its worst finding, at least low (part of the target went untested);
 * - a failed scan: its worst finding so far, at least medium (the target could not be assessed);
 * - a scan starting, a test ping: info.
 */
export function eventSeverity(envelope: WebhookEnvelope): EventSeverity {
  switch (envelope.event) {
    case 'agent.alert':
      return envelope.data.alert.severity;
    case 'ping':
    case 'scan.started':
      return 'info';
    case 'vulnerability.critical':
      return envelope.data.vulnerability?.severity ?? 'critical';
    case 'scan.failed':
      return atLeast(worstSeverity(envelope.data), 'medium');
    case 'scan.regressed':
      // a fix that did not hold is a live weakness someone believed closed
      return envelope.data.reason === 'found_again' ? 'high' : 'medium';
    case 'scan.completed_partial':
      return atLeast(worstSeverity(envelope.data), 'low');
    default:
      return worstSeverity(envelope.data);
  }
}
