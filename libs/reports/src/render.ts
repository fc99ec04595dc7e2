import type { ScanReport } from '@gauntlet/assessment';
import { RenderedReport, reportFilename } from './common';
import { REPORT_FORMAT_SPECS, ReportFormat } from './formats';

const byName = new Map<string, (typeof REPORT_FORMAT_SPECS)[number]>(REPORT_FORMAT_SPECS.map((f) => [f.name, f]));

/** The report in `format`, with its content type and the file name a download gets. */
export async function renderReport(format: ReportFormat, report: ScanReport): Promise<RenderedReport> {
  const spec = byName.get(format);
  if (!spec) throw new RangeError(`Unknown report format: ${String(format)}`);
  return { contentType: spec.contentType, filename: reportFilename(report, spec.extensions[0]), body: await spec.render(report) };
}
