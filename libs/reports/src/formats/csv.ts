import type { ScanReport } from '@gauntlet/assessment';
import { exposureLine, proofLinesOf, type ProofLineName, type ProofMatch } from '@gauntlet/domain';
import { evidenceText, proofLine } from '../common';
import { reportFormat } from './report-format';

/**
 * A cell a spreadsheet would read as a formula (=, +, -, @, tab, CR first) gets a leading
 * apostrophe (OWASP "CSV Injection"): finding text quotes attacker-chosen model output.
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** RFC 4180: quote when the cell holds a comma, quote, CR or LF; double inner quotes. */
export function csvCell(value: unknown): string {
  const text = neutraliseCell(value === null || value === undefined ? '' : String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The column each proof kind's fact is in (PROOF_FACTS, as lines: a request on one line, not its
 * method, path, host and query), in column order. Spreadsheets already read these names: a fact
 * added to PROOF_FACTS does not compile until it has its column here.
 */
export const CSV_PROOF_COLUMNS = {
  tool: 'proof_tool',
  arguments: 'proof_arguments',
  request: 'proof_request',
  at: 'proof_request_at',
} as const satisfies Record<ProofLineName, `proof_${string}`>;

const proofColumns = Object.values(CSV_PROOF_COLUMNS);

export const CSV_COLUMNS: readonly string[] = [
  'scan_id', 'target', 'finding_id', 'severity', 'category', 'category_name', 'title', 'probe_id', 'technique', 'converters',
  'how', 'variants', 'fingerprint', 'confidence', 'phase', 'found_at', 'description', 'detector', 'matched', 'read_as', 'evidence', 'remediation', 'references',
  'since_last_scan', 'triage_state', 'triage_reason', 'triage_by', 'triage_at', 'triage_expires_at',
  // a partial scan's findings are only what ran: every row says so
  'scan_partial', 'scan_coverage',
  // the span of the answer that proves the finding, and what it matched
  'proof',
  // what kind of proof it is, and for what the target did, its kind's facts: the tool it called with
  // its arguments (JSON, bounded), or the request that reached the planted address and when
  'proof_kind', ...proofColumns,
  // the weakness's instances: every probe that showed it and how many conversations; what it
  // exposed, masked, one per value; whether a credential among them must be rotated
  'probes', 'conversations', 'exposes', 'rotate',
];

/** a fact in a cell, whole where it is data (a call's arguments: the JSON the agent sent), bounded (a cell is read, not replayed) */
export const MAX_CSV_FACT_CHARS = 2000;

const cell = (text: string) => (text.length > MAX_CSV_FACT_CHARS ? `${text.slice(0, MAX_CSV_FACT_CHARS - 1)}…` : text);

/** the proof's kind, then a cell per proof column: its kind's facts in theirs, the others empty */
function proofCells(m: ProofMatch | undefined): unknown[] {
  const facts = new Map(m ? proofLinesOf(m.kind).map((f) => [CSV_PROOF_COLUMNS[f.name], cell(f.whole?.(m) ?? f.read(m) ?? '')]) : []);
  return [m?.kind ?? '', ...proofColumns.map((c) => facts.get(c) ?? '')];
}

export function toCsv(report: ScanReport): string {
  const rows: unknown[][] = [[...CSV_COLUMNS]];
  for (const v of report.vulnerabilities) {
    rows.push([
      report.scan.id, report.target.name ?? '', v.id, v.severity, v.category, v.category_name, v.title, v.probe_id, v.technique,
      v.converters.join(' '), v.how, v.variants.length, v.fingerprint, v.confidence, v.phase, v.found_at, v.description, v.evidence?.detector ?? '', v.evidence?.matched ?? '',
      v.evidence?.read_as ?? '', evidenceText(v, 4, 400, '\n'), v.remediation, v.references.join(' '),
      v.change ?? '', v.triage?.state ?? 'open', v.triage?.reason ?? '', v.triage?.by_name ?? v.triage?.by ?? '', v.triage?.at ?? '', v.triage?.expires_at ?? '',
      report.scan.partial, report.scan.coverage ?? '',
      proofLine(v) ?? '',
      ...proofCells(v.evidence?.proof?.matched),
      v.probes.join(' '), v.conversations, v.exposures.map(exposureLine).join('\n'), v.exposures.some((x) => x.rotate),
    ]);
  }
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export const csv = reportFormat({
  name: 'csv',
  label: 'CSV',
  contentType: 'text/csv; charset=utf-8',
  extensions: ['csv'],
  render: (report) => Buffer.from(toCsv(report), 'utf8'),
});
