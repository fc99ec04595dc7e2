import { proofFactsOf, type ProofFactName, type Severity } from '@gauntlet/domain';
import { eventSeverity, exposureSummary, proofTally, regressionMessage, shownGrade, type FindingProof, type WebhookEnvelope } from '../envelope';
import { siemFormat, type ProductVersion } from './siem-format';

/** Header fields: backslash and pipe are escaped (ArcSight CEF rules); newlines would end the record. */
export function escapeCefHeader(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, ' ');
}

/** Extension values: backslash, equals sign, newline and carriage return are escaped; pipes are not. */
export function escapeCefValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/=/g, '\\=').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** CEF severity 0-10: 0-3 Low, 4-6 Medium, 7-8 High, 9-10 Very-High. */
const SEVERITY: Record<Severity | 'info', number> = { info: 1, low: 3, medium: 5, high: 8, critical: 10 };

export interface CefProduct {
  vendor: string;
  product: string;
  version: string;
}

type Ext = [key: string, value: string | number | null | undefined];

function custom(pairs: [label: string, value: string | number | null | undefined][], prefix: 'cs' | 'cn'): Ext[] {
  const out: Ext[] = [];
  pairs.forEach(([label, value], i) => {
    if (value === null || value === undefined) return;
    out.push([`${prefix}${i + 1}`, value], [`${prefix}${i + 1}Label`, label]);
  });
  return out;
}

/**
 * The key of the CEF standard's own each proof kind's fact is in (null: none fits, and the fact is
 * said only in the proof's words at the end of `msg`): a fact added to PROOF_FACTS does not compile
 * until it says which here. `request` and the time keys already hold the report link and the event's.
 */
export const CEF_PROOF_KEYS = {
  tool: null,
  arguments: null,
  method: 'requestMethod',
  path: null,
  host: null,
  query: null,
  at: null,
} as const satisfies Record<ProofFactName, string | null>;

/** the finding's proof facts that have a key of the standard's own, each under it */
function proofKeys(proof: FindingProof | undefined): Ext[] {
  if (!proof) return [];
  return proofFactsOf(proof.kind).flatMap((f): Ext[] => {
    const key = CEF_PROOF_KEYS[f.name];
    return key ? [[key, proof[f.name]]] : [];
  });
}

/**
 * One CEF record. Signature ID is the webhook event name; severity is `eventSeverity`, the model
 * OCSF and syslog map from too. Custom fields are fixed per event kind so SIEM parsers can map them:
 * scans: cs1 scanId, cs2 targetId, cs3 targetName, cs4 securityGrade, cs5 owaspCategory, cs6 vulnerabilityId (a finding)
 * or exposures (a finished scan: what leaked, and which credentials to rotate, also said right after the score in `msg`),
 * cn1 securityScore, cn2 totalFindings, cn3 criticalFindings, flexNumber1 newFindings (scan end), flexString2 proofKind (a finding:
 * tool_call, out_of_band, canary...) or findingsByProof (a scan: `tool_call=2,out_of_band=1`), requestMethod the callback's
 * method (an out_of_band proof: CEF_PROOF_KEYS); the proof in words ends `msg`; agent alerts: cs1 sessionId, cs2 targetId,
 * cs3 targetName, cs4 detector, cs5 kind, cs6 matched.
 */
export function renderCef(envelope: WebhookEnvelope, product: CefProduct): string {
  let name: string;
  let severity: number;
  let ext: Ext[];
  const rt = Date.parse(envelope.timestamp);
  if (envelope.event === 'agent.alert') {
    const { alert, target_id, target_name } = envelope.data;
    name = `Live agent alert: ${alert.rule}`;
    severity = SEVERITY[eventSeverity(envelope)];
    ext = [
      ['rt', rt], ['msg', `${alert.kind} in session ${alert.session_id} matched ${alert.rule}`], ['cat', 'agent.alert'], ['externalId', alert.id], ['outcome', alert.severity],
      ...custom([['sessionId', alert.session_id], ['targetId', target_id], ['targetName', target_name], ['detector', alert.detector], ['kind', alert.kind], ['matched', alert.matched]], 'cs'),
    ];
  } else if (envelope.event === 'ping') {
    name = 'Webhook test';
    severity = SEVERITY[eventSeverity(envelope)];
    ext = [['rt', rt], ['msg', envelope.data.message], ['cat', 'ping'], ['externalId', envelope.id], ...custom([['webhookId', envelope.data.webhook_id]], 'cs')];
  } else {
    const d = envelope.data;
    const v = d.vulnerability;
    name = v ? `Critical vulnerability: ${v.title}` : { 'scan.started': 'Scan started', 'scan.completed': 'Scan completed', 'scan.failed': 'Scan failed', 'scan.completed_partial': 'Scan completed partially', 'scan.regressed': 'Scan regressed' }[envelope.event as 'scan.started'];
    const regressed = envelope.event === 'scan.regressed';
    severity = SEVERITY[eventSeverity(envelope)];
    const score = d.security_score === null ? '' : ` score ${d.security_score} grade ${shownGrade(d)};`;
    const proof = v?.proof;
    const tally = proofTally(d.findings_by_proof);
    // what leaked comes first after the score: the values, and which to rotate
    const leaked = exposureSummary(d);
    ext = [
      ['rt', rt],
      ['msg', regressed ? regressionMessage(d) : `${name} on ${d.target_name}:${score}${leaked ? ` ${leaked}.` : ''} ${d.total_findings} findings (critical ${d.critical}, high ${d.high}, medium ${d.medium}, low ${d.low})${d.new_findings !== undefined ? `, ${d.new_findings} new since the previous scan` : ''}${d.reason ? `; ${d.reason}` : ''}${proof ? `. Proof: ${proof.shows}` : ''}`],
      ['cat', envelope.event],
      ['externalId', envelope.id],
      ['outcome', d.status],
      ['request', d.report_url],
      ...(regressed ? ([['reason', d.reason]] as Ext[]) : []),
      ...custom([['scanId', d.scan_id], ['targetId', d.target_id], ['targetName', d.target_name], ['securityGrade', shownGrade(d)], ['owaspCategory', v?.category], regressed ? ['fingerprints', d.fingerprints?.join(',') || null] : v ? ['vulnerabilityId', v.id] : ['exposures', leaked]], 'cs'),
      ...custom([['securityScore', d.security_score], ['totalFindings', d.total_findings], ['criticalFindings', d.critical]], 'cn'),
      // cn1..cn3 are taken: findings new since the previous scan go in the flex number
      ...(d.new_findings !== undefined ? ([['flexNumber1', d.new_findings], ['flexNumber1Label', 'newFindings']] as Ext[]) : []),
      // a partial scan says so, and what share of its plan ran (in percent: flex numbers are integers)
      ...(d.partial !== undefined ? ([['flexString1', d.partial ? 'partial' : 'whole'], ['flexString1Label', 'scanCoverage']] as Ext[]) : []),
      ...(typeof d.coverage === 'number' ? ([['flexNumber2', Math.round(d.coverage * 100)], ['flexNumber2Label', 'coveragePercent']] as Ext[]) : []),
      // a regression carries no coverage: its second flex number is the previous score, labelled so
      ...(regressed && d.previous_score !== null && d.previous_score !== undefined ? ([['flexNumber2', d.previous_score], ['flexNumber2Label', 'previousScore']] as Ext[]) : []),
      // what proves the finding, or the scan's findings by what proves them
      ...(proof ? ([['flexString2', proof.kind], ['flexString2Label', 'proofKind']] as Ext[]) : tally ? ([['flexString2', tally], ['flexString2Label', 'findingsByProof']] as Ext[]) : []),
      ...proofKeys(proof),
    ];
  }
  const header = ['CEF:0', product.vendor, product.product, product.version, envelope.event, name, String(severity)].map((h, i) => (i === 0 ? h : escapeCefHeader(h)));
  const extension = ext.filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k}=${escapeCefValue(String(v))}`).join(' ');
  return `${header.join('|')}|${extension}`;
}

export const cef = siemFormat({
  name: 'cef',
  label: 'CEF (ArcSight)',
  contentType: 'text/plain; charset=utf-8',
  render: (envelope, options: ProductVersion) => renderCef(envelope, { vendor: 'Gauntlet', product: 'Gauntlet', version: options.productVersion }),
});
