import type { Severity } from '@gauntlet/domain';
import { hostname } from 'node:os';
import { eventSeverity, exposureSummary, proofFactFields, proofTally, regressionMessage, shownGrade, type WebhookEnvelope } from '../envelope';
import { siemFormat } from './siem-format';

export interface SyslogOptions {
  /** 0..23; default 13 (log audit): these are security audit records, and facility 13 keeps them out of hosts' auth logs */
  facility?: number;
  hostname?: string;
  appName?: string;
  procId?: string;
  /**
   * IANA Private Enterprise Number of the SD-ID `gauntlet@<pen>`. The default 32473 is the number
   * RFC 5612 reserves for documentation; an operator with its own PEN sets it here.
   */
  enterpriseNumber?: number;
}

export const DEFAULT_SYSLOG_FACILITY = 13;
export const DEFAULT_ENTERPRISE_NUMBER = 32473;
const BOM = '\uFEFF';

/** RFC 5424 severities: 2 Critical, 3 Error, 4 Warning, 5 Notice, 6 Informational. */
const SEVERITY: Record<Severity | 'info', number> = { critical: 2, high: 3, medium: 4, low: 5, info: 6 };

/** PRINTUSASCII (33..126), truncated to the field's limit; "-" (NILVALUE) when empty. */
function headerField(value: string | undefined, max: number): string {
  const clean = (value ?? '').replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return clean || '-';
}

/**
 * PARAM-VALUE escaping (RFC 5424 6.3.3): `"`, `\` and `]` get a backslash. Line breaks become `\n`
 * and `\r` too: RFC 5424 allows them in a value, but a relay that frames records by newline (RFC
 * 6587 non-transparent framing, most of them) would split the record there. A backslash is
 * always escaped, so `\n` here can only mean a line break.
 */
export function escapeSdValue(value: string): string {
  return escapeLineBreaks(value.replace(/[\\"\]]/g, (c) => '\\' + c));
}

/** CR and LF as the two characters `\r` and `\n`: one record stays one line, whatever the text held. */
export function escapeLineBreaks(value: string): string {
  return value.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/** SD-NAME: 1..32 PRINTUSASCII except `=`, space, `]`, `"`. */
function sdName(name: string): string {
  return name.replace(/[^\x21-\x7e]|[= \]"]/g, '').slice(0, 32);
}

/** RFC 3339 in UTC with millisecond precision (RFC 5424 allows at most 6 fractional digits). */
function timestamp(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? '-' : t.toISOString();
}

function details(envelope: WebhookEnvelope): { severity: number; params: [string, unknown][]; msg: string } {
  const base: [string, unknown][] = [['id', envelope.id], ['event', envelope.event]];
  if (envelope.event === 'agent.alert') {
    const { alert, target_id, target_name } = envelope.data;
    return {
      severity: SEVERITY[eventSeverity(envelope)],
      params: [...base, ['target_id', target_id], ['target_name', target_name], ['alert_id', alert.id], ['session_id', alert.session_id], ['kind', alert.kind], ['rule', alert.rule], ['severity', alert.severity], ['detector', alert.detector], ['matched', alert.matched], ['occurred_at', alert.occurred_at]],
      msg: `Live agent alert on ${target_name}: ${alert.rule} (${alert.severity})`,
    };
  }
  if (envelope.event === 'ping') {
    return { severity: SEVERITY[eventSeverity(envelope)], params: [...base, ['webhook_id', envelope.data.webhook_id]], msg: envelope.data.message };
  }
  const d = envelope.data;
  const v = d.vulnerability;
  const score = d.security_score === null ? '' : ` score ${d.security_score} (${shownGrade(d)}),`;
  return {
    severity: SEVERITY[eventSeverity(envelope)],
    params: [
      ...base, ['scan_id', d.scan_id], ['target_id', d.target_id], ['target_name', d.target_name], ['status', d.status],
      ['security_score', d.security_score], ['security_grade', d.security_grade], ['total_findings', d.total_findings],
      ['critical', d.critical], ['high', d.high], ['medium', d.medium], ['low', d.low], ['new_findings', d.new_findings], ['base_scan_id', d.base_scan_id], ['partial', d.partial], ['coverage', d.coverage], ['report_url', d.report_url], ['reason', d.reason],
      ['previous_score', d.previous_score], ['fingerprints', d.fingerprints?.join(',') || undefined],
      ['findings_by_proof', proofTally(d.findings_by_proof)],
      // what leaked: how many values, how many credentials to rotate (the message says which)
      ['exposures', d.exposures?.length || undefined], ['rotate', d.exposures?.filter((e) => e.rotate).length || undefined],
      ...(v ? ([['vulnerability_id', v.id], ['title', v.title], ['category', v.category], ['severity', v.severity], ['probe_id', v.probe_id]] as [string, unknown][]) : []),
      // what proves it: the kind, and its kind's own facts (the call's tool and arguments, the request that came back), each as proof_<fact>
      ...(v?.proof ? ([['proof_kind', v.proof.kind], ...proofFactFields(v.proof)] as [string, unknown][]) : []),
    ],
    msg: envelope.event === 'scan.regressed'
      ? regressionMessage(d)
      : v
      ? `Critical vulnerability in ${d.target_name}: ${v.title} (${v.category})${v.proof ? `. Proof: ${v.proof.shows}` : ''}`
      : `Gauntlet ${envelope.event} for ${d.target_name}:${score}${exposureSummary(d) ? ` ${exposureSummary(d)}.` : ''} ${d.total_findings} findings${d.reason ? `; ${d.reason}` : ''}`,
  };
}

/**
 * One RFC 5424 message: `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [gauntlet@PEN k="v" ...] BOM MSG`.
 * MSGID is the event name; absent values (null) are left out of the structured data.
 */
export function renderSyslog(envelope: WebhookEnvelope, options: SyslogOptions = {}): string {
  const facility = options.facility ?? DEFAULT_SYSLOG_FACILITY;
  if (!Number.isInteger(facility) || facility < 0 || facility > 23) throw new RangeError(`syslog facility must be 0..23, got ${facility}`);
  const { severity, params, msg } = details(envelope);
  const sdId = `gauntlet@${options.enterpriseNumber ?? DEFAULT_ENTERPRISE_NUMBER}`;
  const sd = params
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${sdName(k)}="${escapeSdValue(String(v))}"`)
    .join(' ');
  const header = [
    `<${facility * 8 + severity}>1`,
    timestamp(envelope.timestamp),
    headerField(options.hostname, 255),
    headerField(options.appName ?? 'gauntlet', 48),
    headerField(options.procId, 128),
    headerField(envelope.event, 32),
  ].join(' ');
  return `${header} [${sdId} ${sd}] ${BOM}${escapeLineBreaks(msg)}`;
}

/** format_type syslog: this host's name unless the operator's syslog options say otherwise */
export const syslog = siemFormat({
  name: 'syslog',
  label: 'Syslog (RFC 5424)',
  contentType: 'text/plain; charset=utf-8',
  render: (envelope, options: { syslog?: SyslogOptions }) => renderSyslog(envelope, { hostname: hostname(), ...options.syslog }),
});

/** RFC 6587 octet counting: `LEN SP MSG`, LEN in UTF-8 bytes. */
export function octetCountedFrame(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}
