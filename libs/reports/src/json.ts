import type { ScanReport } from '@gauntlet/assessment';
import { RenderedReport, reportFilename } from './common';

export function renderJson(report: ScanReport): RenderedReport {
  return {
    contentType: 'application/json',
    filename: reportFilename(report, 'json'),
    body: Buffer.from(JSON.stringify(report, null, 2) + '\n', 'utf8'),
  };
}
