import type { Severity } from '@gauntlet/domain';
import { eventSeverity, exposureSummary, proofTally, regressionMessage, shownGrade, type AgentAlertEnvelope, type PingEnvelope, type ScanEnvelope, type WebhookEnvelope } from '../../envelope';

import { siemFormat, type ProductVersion } from '../siem-format';

export const OCSF_VERSION = '1.8.0';

/** OCSF severity_id (dictionary.json): 1 Informational, 2 Low, 3 Medium, 4 High, 5 Critical. */
const SEVERITY_ID: Record<Severity | 'info', number> = { info: 1, low: 2, medium: 3, high: 4, critical: 5 };
const SEVERITY_CAPTION: Record<number, string> = { 1: 'Informational', 2: 'Low', 3: 'Medium', 4: 'High', 5: 'Critical' };

export const OCSF_CLASS = { baseEvent: 0, vulnerabilityFinding: 2002, detectionFinding: 2004, scanActivity: 6007 } as const;

export interface OcsfProduct {
  name: string;
  vendor_name: string;
  version: string;
}

type OcsfEvent = Record<string, unknown> & { class_uid: number; activity_id: number; type_uid: number };

function base(envelope: WebhookEnvelope, product: OcsfProduct, classUid: number, categoryUid: number, activityId: number, severityId: number, correlationUid?: string) {
  return {
    class_uid: classUid,
    category_uid: categoryUid,
    activity_id: activityId,
    type_uid: classUid * 100 + activityId,
    severity_id: severityId,
    severity: SEVERITY_CAPTION[severityId],
    time: Date.parse(envelope.timestamp),
    metadata: { product: { ...product }, version: OCSF_VERSION, uid: envelope.id, ...(correlationUid ? { correlation_uid: correlationUid } : {}) },
  };
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : undefined);

/**
 * Scan Activity (6007): 1 Started, 2 Completed, 6 Error. A partial scan is activity 2 Completed
 * with status_id 99 Other and status "Partial": the scan did end and its results are real, but
 * incomplete (the reason goes in status_detail). severity_id is `eventSeverity`, as in CEF and syslog.
 */
function scanActivity(e: ScanEnvelope, product: OcsfProduct): OcsfEvent {
  const d = e.data;
  // a regression is no step of the scan itself: 99 Other, named Regressed
  const activity = { 'scan.started': 1, 'scan.completed': 2, 'scan.completed_partial': 2, 'scan.failed': 6, 'scan.regressed': 99 }[e.event as 'scan.started'];
  const regressed = e.event === 'scan.regressed';
  const status = regressed
    ? { status_id: 99, status: 'Regressed' }
    : e.event === 'scan.failed' ? { status_id: 2, status: 'Failure' } : e.event === 'scan.completed_partial' ? { status_id: 99, status: 'Partial' } : { status_id: 1, status: 'Success' };
  const grade = d.security_score === null ? '' : `, score ${d.security_score} (${shownGrade(d)})`;
  return {
    ...base(e, product, OCSF_CLASS.scanActivity, 6, activity, SEVERITY_ID[eventSeverity(e)], d.scan_id),
    activity_name: { 1: 'Started', 2: 'Completed', 6: 'Error', 99: 'Regressed' }[activity],
    ...status,
    ...(d.reason ? { status_detail: d.reason } : {}),
    message: regressed ? regressionMessage(d) : `Gauntlet scan ${e.event.slice(5).replace('_', ' ')} for ${d.target_name}${grade}${exposureSummary(d) ? `. ${exposureSummary(d)}.` : ','} ${d.total_findings} findings`,
    // 99 Other: an adversarial AI scan is none of the schema's malware-era scan types
    scan: { type_id: 99, type: 'AI adversarial security scan', name: `Gauntlet scan of ${d.target_name}`, uid: d.scan_id },
    num_detections: d.total_findings,
    ...(ms(d.started_at) !== undefined ? { start_time: ms(d.started_at) } : {}),
    ...(ms(d.finished_at) !== undefined ? { end_time: ms(d.finished_at) } : {}),
    unmapped: {
      target_id: d.target_id,
      target_name: d.target_name,
      security_score: d.security_score,
      security_grade: d.security_grade,
      critical: d.critical,
      high: d.high,
      medium: d.medium,
      low: d.low,
      ...(d.new_findings !== undefined && { new_findings: d.new_findings, base_scan_id: d.base_scan_id ?? null }),
      ...(d.partial !== undefined && { partial: d.partial, coverage: d.coverage ?? null }),
      ...(regressed && { regression_reason: d.reason, fingerprints: d.fingerprints ?? [], score: d.score, previous_score: d.previous_score ?? null }),
      ...(proofTally(d.findings_by_proof) && { findings_by_proof: d.findings_by_proof }),
      // what leaked, once: each value masked, the finding holding it, rotate for a credential
      ...(d.exposures?.length && { exposures: d.exposures }),
      report_url: d.report_url,
    },
  };
}

/**
 * Vulnerability Finding (2002), activity 1 Create; the OWASP LLM category is the advisory (just one
 * of advisory/cve/cwe). What proves it is said in `finding_info.desc` (the call the agent made, the
 * request that reached the planted address) and kept whole, bounded, in `unmapped.proof`: 1.8's
 * Vulnerability Finding has no attribute of its own for a tool call or a callback.
 */
function vulnerabilityFinding(e: ScanEnvelope, product: OcsfProduct): OcsfEvent {
  const d = e.data;
  const v = d.vulnerability!;
  const proof = v.proof;
  return {
    ...base(e, product, OCSF_CLASS.vulnerabilityFinding, 2, 1, SEVERITY_ID[eventSeverity(e)], d.scan_id),
    activity_name: 'Create',
    status_id: 1,
    status: 'New',
    message: `Critical vulnerability in ${d.target_name}: ${v.title}${proof ? `. Proof: ${proof.shows}` : ""}`,
    finding_info: {
      uid: `${d.scan_id}:${v.id}`,
      title: v.title,
      created_time: Date.parse(e.timestamp),
      src_url: d.report_url,
      ...(proof && { desc: `Proof: ${proof.shows}` }),
      types: [v.category, ...(proof ? [`proof:${proof.kind}`] : [])],
      analytic: { uid: v.probe_id, name: v.probe_id, type_id: 1, type: 'Rule' },
    },
    vulnerabilities: [{ title: v.title, severity: SEVERITY_CAPTION[SEVERITY_ID[v.severity]], advisory: { uid: v.category, title: v.category_name } }],
    resources: [{ uid: d.target_id, name: d.target_name, type: 'AI Target' }],
    unmapped: { scan_id: d.scan_id, vulnerability_id: v.id, probe_id: v.probe_id, report_url: d.report_url, ...(proof && { proof }) },
  };
}

/** Detection Finding (2004), activity 1 Create: a live agent alert is a detection, not a vulnerability. */
function detectionFinding(e: AgentAlertEnvelope, product: OcsfProduct): OcsfEvent {
  const { alert, target_id, target_name } = e.data;
  return {
    ...base(e, product, OCSF_CLASS.detectionFinding, 2, 1, SEVERITY_ID[eventSeverity(e)]),
    activity_name: 'Create',
    status_id: 1,
    status: 'New',
    is_alert: true,
    message: `Live agent alert on ${target_name}: ${alert.rule}`,
    finding_info: {
      uid: alert.id,
      title: alert.rule,
      created_time: Date.parse(alert.occurred_at),
      types: [alert.kind],
      analytic: { uid: alert.detector, name: alert.detector, type_id: 1, type: 'Rule' },
    },
    resources: [{ uid: target_id, name: target_name, type: 'AI Target' }],
    unmapped: { session_id: alert.session_id, kind: alert.kind, matched: alert.matched },
  };
}

/** The test ping has no class of its own: the schema's Base Event (class 0), activity 99 Other. */
function ping(e: PingEnvelope, product: OcsfProduct): OcsfEvent {
  return { ...base(e, product, OCSF_CLASS.baseEvent, 0, 99, SEVERITY_ID[eventSeverity(e)]), activity_name: 'Other', message: e.data.message, unmapped: { webhook_id: e.data.webhook_id } };
}

export function toOcsf(envelope: WebhookEnvelope, product: OcsfProduct): OcsfEvent {
  switch (envelope.event) {
    case 'agent.alert':
      return detectionFinding(envelope, product);
    case 'ping':
      return ping(envelope, product);
    case 'vulnerability.critical':
      return vulnerabilityFinding(envelope, product);
    default:
      return scanActivity(envelope, product);
  }
}

/** format_type ocsf: one OCSF event as JSON. */
export function renderOcsf(envelope: WebhookEnvelope, product: OcsfProduct): string {
  return JSON.stringify(toOcsf(envelope, product));
}

export const ocsf = siemFormat({
  name: 'ocsf',
  label: 'OCSF 1.8 (JSON)',
  contentType: 'application/json',
  render: (envelope, options: ProductVersion) => renderOcsf(envelope, { name: 'Gauntlet', vendor_name: 'Gauntlet', version: options.productVersion }),
});
