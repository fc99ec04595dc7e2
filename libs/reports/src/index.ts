export * from './common';
export * from './render';
export { renderJson } from './json';
export { renderCsv, toCsv, csvCell, neutraliseCell, CSV_COLUMNS } from './csv';
export { renderMarkdown, toMarkdown, mdText, mdFence } from './markdown';
export { renderHtml, toHtml, escapeHtml, REPORT_CSP } from './html';
export { renderPdf, toPdf } from './pdf';
export { toJunitXml, toSarif, xmlText, SARIF_LEVEL, SECURITY_SEVERITY, type CiScanResult } from './ci';
