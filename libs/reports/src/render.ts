import type { ScanReport } from '@gauntlet/assessment';
import { RenderedReport, ReportFormat } from './common';
import { renderCsv } from './csv';
import { renderHtml } from './html';
import { renderJson } from './json';
import { renderMarkdown } from './markdown';
import { renderPdf } from './pdf';

const renderers: Record<ReportFormat, (r: ScanReport) => RenderedReport | Promise<RenderedReport>> = {
  pdf: renderPdf,
  json: renderJson,
  csv: renderCsv,
  markdown: renderMarkdown,
  html: renderHtml,
};

export async function renderReport(format: ReportFormat, report: ScanReport): Promise<RenderedReport> {
  const render = renderers[format];
  if (!render) throw new RangeError(`Unknown report format: ${String(format)}`);
  return render(report);
}
