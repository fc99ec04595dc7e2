import { extname } from 'node:path';
import type { ScanReport } from '@gauntlet/assessment';
import { CiScanResult, renderReport, REPORT_EXTENSIONS, reportFormatByExtension, ReportFormat, toJunitXml, toSarif } from '@gauntlet/reports';
import { CliError, CLI_VERSION } from '../io';

/**
 * What a report file's extension asks for: one of the service's report formats (their registry in
 * libs/reports/src/formats), or one of the two CI outputs, which only the CLI writes.
 */
export type ReportFileFormat = ReportFormat | CiOutput;
type CiOutput = 'sarif' | 'junit';

const CI_OUTPUT_BY_EXTENSION: Record<string, CiOutput> = { sarif: 'sarif', xml: 'junit' };

/** the extensions `--report` understands, for its help and its refusal */
export const REPORT_FILE_EXTENSIONS = [...REPORT_EXTENSIONS, '.sarif', '.xml (JUnit)'];

/** `report.sarif.json` is SARIF (as GitHub names them), `junit.xml` JUnit; otherwise the last extension decides. */
export function reportFormatOf(file: string): ReportFileFormat {
  const lower = file.toLowerCase();
  if (lower.endsWith('.sarif.json')) return 'sarif';
  const extension = extname(lower).slice(1);
  const format = CI_OUTPUT_BY_EXTENSION[extension] ?? reportFormatByExtension(extension);
  if (!format) throw new CliError(`--report ${file}: the extension says which format to write: ${REPORT_FILE_EXTENSIONS.slice(0, -1).join(', ')} or ${REPORT_FILE_EXTENSIONS.at(-1)}`);
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
    ...(report.exposures_recorded && { exposures: report.exposures }),
  };
}

/** The bytes of one report file. */
export async function renderReportFile(format: ReportFileFormat, report: ScanReport, failThreshold: number | null): Promise<string | Uint8Array> {
  if (format === 'junit') return toJunitXml(ciResultOf(report, failThreshold));
  if (format === 'sarif') return JSON.stringify(toSarif(ciResultOf(report, failThreshold), { version: CLI_VERSION }), null, 2) + '\n';
  return (await renderReport(format, report)).body;
}
