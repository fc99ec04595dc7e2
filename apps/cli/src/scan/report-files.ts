import { extname } from 'node:path';
import type { ScanReport } from '@gauntlet/assessment';
import { CiScanResult, renderReport, toJunitXml, toSarif } from '@gauntlet/reports';
import { CliError, CLI_VERSION } from '../io';

/** What a report file's extension asks for: the service's five report formats, and the two CI ones. */
export type ReportFileFormat = 'html' | 'pdf' | 'json' | 'csv' | 'markdown' | 'sarif' | 'junit';

const BY_EXTENSION: Record<string, ReportFileFormat> = {
  '.html': 'html', '.htm': 'html', '.pdf': 'pdf', '.json': 'json', '.csv': 'csv', '.md': 'markdown', '.markdown': 'markdown',
  '.sarif': 'sarif', '.xml': 'junit',
};

/** `report.sarif.json` is SARIF (as GitHub names them), `junit.xml` JUnit; otherwise the last extension decides. */
export function reportFormatOf(file: string): ReportFileFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.sarif.json')) return 'sarif';
  const format = BY_EXTENSION[extname(lower)];
  if (!format) throw new CliError(`--report ${file}: the extension says which format to write: .html, .pdf, .json, .csv, .md, .sarif or .xml (JUnit)`);
  return format;
}

/** The CI formats take the scan's result in their own shape; it is the report model, read differently. */
export function ciResultOf(report: ScanReport, failThreshold: number | null): CiScanResult {
  return {
    id: report.scan.id,
    target_id: report.target.id,
    target_name: report.target.name,
    target_url: report.target.url,
    status: report.scan.status,
    security_score: report.score?.overall_score ?? null,
    security_grade: report.score?.grade ?? null,
    fail_threshold: failThreshold,
    finished_at: report.scan.finished_at,
    report_url: report.links.report_url,
    vulnerabilities: report.vulnerabilities,
    category_scores: report.score?.category_scores ?? null,
    partial: report.scan.partial,
    coverage: report.scan.coverage,
  };
}

/** The bytes of one report file. */
export async function renderReportFile(format: ReportFileFormat, report: ScanReport, failThreshold: number | null): Promise<string | Uint8Array> {
  if (format === 'junit') return toJunitXml(ciResultOf(report, failThreshold));
  if (format === 'sarif') return JSON.stringify(toSarif(ciResultOf(report, failThreshold), { version: CLI_VERSION }), null, 2) + '\n';
  return (await renderReport(format, report)).body;
}
