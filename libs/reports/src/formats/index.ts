import { csv } from './csv';
import { html } from './html';
import { json } from './json';
import { markdown } from './markdown';
import { pdf } from './pdf';

/** Every report format the service serves, in the order the API lists them. A new format: its file, and one line here. */
export const REPORT_FORMAT_SPECS = [pdf, json, csv, markdown, html] as const;

export type ReportFormat = (typeof REPORT_FORMAT_SPECS)[number]['name'];
export const REPORT_FORMATS: readonly ReportFormat[] = REPORT_FORMAT_SPECS.map((f) => f.name);

export type { ReportFormatSpec } from './report-format';
export { toCsv, csvCell, neutraliseCell, CSV_COLUMNS } from './csv';
export { toMarkdown, mdText, mdFence } from './markdown';
export { toHtml, escapeHtml, REPORT_CSP } from './html';
export { toPdf } from './pdf';

const byExtension = new Map<string, ReportFormat>(REPORT_FORMAT_SPECS.flatMap((f) => f.extensions.map((e) => [e, f.name] as const)));

/** The format a file extension (without the dot, any case) asks for, as the CLI's `-o report.md` reads it. */
export const reportFormatByExtension = (extension: string): ReportFormat | undefined => byExtension.get(extension.toLowerCase());

/** each format's own extension, dotted, for help texts: ".pdf .json ..." */
export const REPORT_EXTENSIONS: readonly string[] = REPORT_FORMAT_SPECS.map((f) => `.${f.extensions[0]}`);
