import type { ScanReport } from '@gauntlet/assessment';
import type { Severity, Turn, Vulnerability } from '@gauntlet/domain';

export type ReportFormat = 'pdf' | 'json' | 'csv' | 'markdown' | 'html';
export const REPORT_FORMATS: readonly ReportFormat[] = ['pdf', 'json', 'csv', 'markdown', 'html'];

export interface RenderedReport {
  contentType: string;
  filename: string;
  body: Buffer;
}

export const SEVERITY_LABEL: Readonly<Record<Severity, string>> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low' };

/** Bounded excerpt: evidence can hold whole model replies; reports show enough to reproduce. */
export function excerpt(text: string, max: number): string {
  const t = text.replace(/\r\n?/g, '\n');
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

export function evidenceTurns(v: Vulnerability, maxTurns = 4, maxChars = 400): Turn[] {
  const turns = v.evidence?.turns ?? [];
  const shown = turns.length > maxTurns ? turns.slice(-maxTurns) : turns;
  return shown.map((t) => ({ role: t.role, content: excerpt(t.content, maxChars) }));
}

/** File names carry only the scan id, reduced to safe characters (it ends up in Content-Disposition). */
export function reportFilename(report: ScanReport, ext: string): string {
  const id = (report.scan.id || 'scan').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
  return `gauntlet-scan-${id}.${ext}`;
}

export const pct = (x: number) => `${Math.round(x * 100)}%`;
