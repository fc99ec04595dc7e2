import type { ControlEvidence, ScanReport } from '@gauntlet/assessment';
import type { Severity } from '@gauntlet/domain';
import { deflateSync } from 'node:zlib';
import { Color, PDFContentStream, PDFDocument, PDFFont, PDFName, PDFPage, PDFRawStream, rgb } from 'pdf-lib';
import { evidenceTurns, pct, plural, proofLine, SEVERITY_LABEL, techniqueLabel } from '../common';
import { reportFormat } from './report-format';
import { FontStack, shapingFontkit } from '../pdf-fonts';
import { anyTriaged, changesLine, controlStatus, PRACTICE_NOTE, scoreLine, spendingLines, triageLine, triageText } from '../summary';

const A4: [number, number] = [595.28, 841.89];
/** variants named per finding in the PDF */
const PDF_VARIANTS = 3;
const MARGIN = 50;
const FOOTER = 40;
const WIDTH = A4[0] - 2 * MARGIN;

const INK = rgb(0.11, 0.11, 0.11);
const MUTED = rgb(0.4, 0.4, 0.4);
const RULE = rgb(0.82, 0.82, 0.82);
const SEVERITY_COLOR: Record<Severity, Color> = {
  critical: rgb(0.69, 0, 0.125),
  high: rgb(0.9, 0.32, 0),
  medium: rgb(0.63, 0.47, 0),
  low: rgb(0.08, 0.4, 0.75),
};
const STATUS_COLOR: Record<string, Color> = { pass: rgb(0.1, 0.37, 0.13), fail: SEVERITY_COLOR.critical, not_tested: MUTED };

/** A style's fonts with the report's text measured and wrapped the way they draw it. */
class Typeface {
  constructor(readonly stack: FontStack) {}
  get font(): PDFFont {
    return this.stack.primary;
  }
  clean(text: string): string {
    return this.stack.clean(text);
  }
  width(text: string): number {
    return this.stack.width(text);
  }
  /** greedy word wrap; words wider than a line are cut */
  wrap(text: string, size: number, maxWidth: number): string[] {
    const limit = maxWidth / size;
    const lines: string[] = [];
    const space = this.width(' ');
    for (const paragraph of this.clean(text).split('\n')) {
      let line = '';
      let lineWidth = 0;
      for (let word of paragraph.split(' ')) {
        let ww = this.width(word);
        if (line && lineWidth + space + ww <= limit) {
          line += ' ' + word;
          lineWidth += space + ww;
          continue;
        }
        if (line) lines.push(line);
        while (ww > limit) {
          let cut = '';
          let cw = 0;
          for (const ch of word) {
            const w = this.width(ch);
            if (cw + w > limit && cut) break;
            cut += ch;
            cw += w;
          }
          lines.push(cut);
          word = word.slice(cut.length);
          ww = this.width(word);
        }
        line = word;
        lineWidth = ww;
      }
      lines.push(line);
    }
    return lines;
  }
  /** lines top-down from baseline y: one text object when the style's own font draws them all */
  draw(page: PDFPage, lines: string[], x: number, y: number, size: number, leading: number, color: Color) {
    if (lines.every((l) => this.stack.isSimple(l))) {
      if (lines.some(Boolean)) page.drawText(lines.join('\n'), { x, y, size, lineHeight: leading, font: this.font, color });
      return;
    }
    lines.forEach((line, i) => line && this.stack.drawLine(page, line, x, y - i * leading, size, color));
  }
}

interface Fonts {
  regular: Typeface;
  bold: Typeface;
  mono: Typeface;
}

/** Flows content down pages, starting a new page whenever the next block would not fit. */
class Layout {
  page!: PDFPage;
  y = 0;
  constructor(private readonly doc: PDFDocument, readonly fonts: Fonts) {
    this.newPage();
  }
  newPage() {
    this.page = this.doc.addPage(A4);
    this.y = A4[1] - MARGIN;
  }
  ensure(height: number) {
    if (this.y - height < MARGIN + FOOTER) this.newPage();
  }
  gap(h: number) {
    this.y -= h;
  }
  text(text: string, opts: { face?: Typeface; size?: number; color?: Color; indent?: number; width?: number; leading?: number } = {}) {
    const face = opts.face ?? this.fonts.regular;
    const size = opts.size ?? 10;
    const indent = opts.indent ?? 0;
    const leading = opts.leading ?? size * 1.3;
    const lines = face.wrap(text, size, (opts.width ?? WIDTH) - indent);
    // one text object per page for the whole paragraph: per-line drawText calls dominate big reports
    while (lines.length) {
      this.ensure(leading);
      const fit = Math.max(1, Math.floor((this.y - MARGIN - FOOTER) / leading));
      const chunk = lines.splice(0, fit);
      face.draw(this.page, chunk, MARGIN + indent, this.y - leading + (leading - size) / 2, size, leading, opts.color ?? INK);
      this.y -= chunk.length * leading;
    }
  }
  heading(text: string, size = 16) {
    this.ensure(size * 3);
    this.gap(size * 0.6);
    this.text(text, { face: this.fonts.bold, size });
    this.rule();
  }
  rule() {
    this.gap(4);
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + WIDTH, y: this.y }, thickness: 0.6, color: RULE });
    this.gap(6);
  }
  /** a table row: every cell wraps in its column; the row moves to the next page whole */
  row(cells: { text: string; width: number; face?: Typeface; color?: Color; align?: 'right' }[], size = 8.5) {
    const leading = size * 1.3;
    const wrapped = cells.map((c) => (c.face ?? this.fonts.regular).wrap(c.text, size, c.width - 6));
    const height = Math.max(...wrapped.map((l) => l.length)) * leading + 4;
    this.ensure(height);
    let x = MARGIN;
    cells.forEach((c, i) => {
      const face = c.face ?? this.fonts.regular;
      const lines = wrapped[i];
      if (c.align === 'right') {
        lines.forEach((line, j) => face.draw(this.page, [line], x + c.width - 4 - face.width(line) * size, this.y - (j + 1) * leading + 2, size, leading, c.color ?? INK));
      } else {
        face.draw(this.page, lines, x + 2, this.y - leading + 2, size, leading, c.color ?? INK);
      }
      x += c.width;
    });
    this.y -= height;
    this.page.drawLine({ start: { x: MARGIN, y: this.y + 1 }, end: { x: MARGIN + WIDTH, y: this.y + 1 }, thickness: 0.3, color: RULE });
  }
}

function cover(l: Layout, r: ScanReport) {
  const { bold, regular } = l.fonts;
  l.text('Gauntlet security report', { face: bold, size: 24, leading: 32 });
  l.text(r.target.name ?? r.target.url ?? r.scan.id, { face: regular, size: 14, color: MUTED, leading: 20 });
  l.gap(16);

  const s = r.score;
  const after = r.triage.score_after_triage;
  const boxTop = l.y;
  const boxH = 90;
  l.page.drawRectangle({ x: MARGIN, y: boxTop - boxH, width: 200, height: boxH, color: rgb(0.95, 0.95, 0.95), borderColor: RULE, borderWidth: 0.8 });
  if (s) {
    l.page.drawText(String(s.overall_score), { x: MARGIN + 16, y: boxTop - 62, size: 44, font: bold.font, color: INK });
    l.page.drawText(bold.clean(s.grade), { x: MARGIN + 120, y: boxTop - 62, size: 40, font: bold.font, color: s.critical_count ? SEVERITY_COLOR.critical : INK });
    const triaged = after && anyTriaged(r) ? ` · after triage ${after.overall_score} ${after.grade}` : '';
    l.page.drawText(regular.clean(`as scanned, v${s.scoring_version}${triaged}`), { x: MARGIN + 16, y: boxTop - 80, size: 7.5, font: regular.font, color: MUTED });
    // a partial scan's grade never stands alone: the mark and the share of the plan that ran sit on the box
    if (r.scan.partial) {
      const share = r.scan.coverage === null ? '' : ` · ${Math.round(r.scan.coverage * 100)}% of the plan ran`;
      l.page.drawText(bold.clean(`PARTIAL SCAN${share}`), { x: MARGIN + 16, y: boxTop - 14, size: 8, font: bold.font, color: SEVERITY_COLOR.critical });
    }
  } else {
    l.page.drawText('No score', { x: MARGIN + 16, y: boxTop - 55, size: 24, font: bold.font, color: MUTED });
  }
  // severity summary beside the score
  const counts: [Severity, number][] = s
    ? [['critical', s.critical_count], ['high', s.high_count], ['medium', s.medium_count], ['low', s.low_count]]
    : (['critical', 'high', 'medium', 'low'] as Severity[]).map((sev) => [sev, r.vulnerabilities.filter((v) => v.severity === sev).length]);
  counts.forEach(([sev, n], i) => {
    const x = MARGIN + 215 + i * 71;
    l.page.drawRectangle({ x, y: boxTop - boxH, width: 66, height: boxH, color: SEVERITY_COLOR[sev] });
    l.page.drawText(String(n), { x: x + 8, y: boxTop - 50, size: 26, font: bold.font, color: rgb(1, 1, 1) });
    l.page.drawText(SEVERITY_LABEL[sev], { x: x + 8, y: boxTop - 75, size: 10, font: bold.font, color: rgb(1, 1, 1) });
  });
  l.y = boxTop - boxH - 18;

  const a = r.attempts;
  const facts: [string, string][] = [
    ['Scan', r.scan.id],
    ['Target', [r.target.name, r.target.url].filter(Boolean).join('  ') || '-'],
    ['Mode / profile', `${r.target.scan_mode ?? '-'} / ${r.scan.profile ?? '-'}`],
    ['Status', r.scan.status + (r.scan.reason ? ` (${r.scan.reason})` : '')],
    ['Started', r.scan.started_at ?? r.scan.requested_at ?? '-'],
    ['Finished', r.scan.finished_at ?? '-'],
    ['Duration', r.scan.duration_seconds === null ? '-' : `${r.scan.duration_seconds} s`],
    ['Attempts', `${a.total} (${a.run} ran, ${a.failed} succeeded against the target, ${plural(a.errors, 'error')})`],
    ['Score', s ? scoreLine(r) : 'none: the scan did not finish with one'],
    ['Triage', triageLine(r)],
    ['Since last scan', changesLine(r)],
    ['Generated', r.generated_at],
  ];
  for (const [k, v] of facts) l.row([{ text: k, width: 110, face: bold }, { text: v, width: WIDTH - 110 }], 9.5);

  if (s && Object.keys(s.category_scores).length) {
    l.heading('Scores by OWASP category', 13);
    const tri = after && anyTriaged(r) ? after.category_scores : null;
    const widths = tri ? [70, 170, 45, 55, 50, 55, 50] : [75, 215, 45, 55, 55, 50];
    const head = tri ? ['Category', 'Name', 'Score', 'Triaged', 'Probes', 'Succeeded', 'Findings'] : ['Category', 'Name', 'Score', 'Probes', 'Succeeded', 'Findings'];
    l.row(head.map((t, i) => ({ text: t, width: widths[i], face: bold, align: i > 1 ? ('right' as const) : undefined })));
    for (const [id, c] of Object.entries(s.category_scores)) {
      const cells = [id, c.name, String(c.score), ...(tri ? [String(tri[id]?.score ?? 100)] : []), String(c.probes_run), String(c.probes_failed), String(c.findings)];
      l.row(cells.map((text, i) => ({ text, width: widths[i], align: i > 1 ? ('right' as const) : undefined })));
    }
  }
  if (r.techniques_that_worked.length) {
    l.heading('Techniques that worked', 13);
    for (const t of r.techniques_that_worked.slice(0, 15)) {
      l.row([{ text: techniqueLabel(t.technique, t.converters), width: 220 }, { text: `${t.succeeded} of ${t.attempted} (${pct(t.succeeded / t.attempted)})`, width: 110 }, { text: t.categories.join(', '), width: WIDTH - 330 }]);
    }
  }
  const c = r.changes;
  if (c && c.fixed_findings.length) {
    l.heading(`Fixed since the last scan (${c.fixed_findings.length})`, 13);
    for (const f of c.fixed_findings) l.row([{ text: SEVERITY_LABEL[f.severity], width: 60 }, { text: f.title, width: 290 }, { text: f.fingerprint, width: WIDTH - 350 }]);
  }
}

function findings(l: Layout, r: ScanReport) {
  const { bold, mono } = l.fonts;
  l.heading(`Findings (${r.vulnerabilities.length})`);
  if (!r.vulnerabilities.length) l.text('The scan recorded no findings.');
  r.vulnerabilities.forEach((v, i) => {
    l.ensure(70); // keep a finding's header with the start of its body
    l.gap(6);
    const top = l.y;
    l.page.drawRectangle({ x: MARGIN, y: top - 14, width: 52, height: 13, color: SEVERITY_COLOR[v.severity] });
    l.page.drawText(SEVERITY_LABEL[v.severity], { x: MARGIN + 4, y: top - 11, size: 8.5, font: bold.font, color: rgb(1, 1, 1) });
    l.y = top + 1;
    l.text(`${i + 1}. ${v.title}`, { face: bold, size: 11, indent: 60, leading: 15 });
    const status = [v.change === 'new' ? 'New since the last scan' : v.change === 'still_open' ? 'Still open since the last scan' : '', v.triage ? triageText(v.triage) : '']
      .filter(Boolean)
      .join(' · ');
    if (status) l.text(status, { face: bold, size: 8.5, color: v.triage && v.triage.state !== 'open' ? MUTED : SEVERITY_COLOR.high });
    l.text(
      `${v.category} ${v.category_name} · probe ${v.probe_id} · technique ${v.technique}${v.converters.length ? ` · converters ${v.converters.join(', ')}` : ''} · confidence ${pct(v.confidence)} · ${v.phase} · ${v.found_at} · id ${v.id}`,
      { size: 8, color: MUTED },
    );
    l.gap(3);
    l.text(`How it got through: ${v.how}`, { face: bold, size: 9 });
    l.text(v.description, { size: 9.5 });
    l.gap(3);
    l.text(`Evidence (detector ${v.evidence?.detector ?? '-'}${v.evidence?.matched ? `, matched "${v.evidence.matched}"` : ''})`, { face: bold, size: 9 });
    const proof = proofLine(v);
    if (proof) l.text(proof, { face: bold, size: 8.5, color: SEVERITY_COLOR[v.severity] });
    for (const t of evidenceTurns(v, 4, 360)) l.text(`${t.speaker}: ${t.text}`, { face: mono, size: 7.5, indent: 10, leading: 9.5 });
    l.gap(3);
    l.text(`Remediation: ${v.remediation}`, { size: 9.5 });
    if (v.variants.length) {
      // the document a person reads names the first few; the html, json and csv reports carry every one
      l.text(`Also got through (${plural(v.variants.length, 'other way')}):`, { face: bold, size: 9 });
      for (const x of v.variants.slice(0, PDF_VARIANTS)) l.text(`- ${x.how}`, { size: 8.5, indent: 10 });
      if (v.variants.length > PDF_VARIANTS) l.text(`- and ${plural(v.variants.length - PDF_VARIANTS, 'more way')}, listed in the html and json reports`, { size: 8.5, indent: 10, color: MUTED });
    }
    l.rule();
  });
}

function matrix(l: Layout, title: string, controls: ControlEvidence[]) {
  const { bold } = l.fonts;
  l.heading(title, 12);
  const widths = [110, 235, 55, 50, 45];
  l.row(['Control', 'Name', 'Status', 'Findings', 'Probes'].map((t, i) => ({ text: t, width: widths[i], face: bold, align: i > 2 ? ('right' as const) : undefined })));
  for (const c of controls) {
    l.row([
      { text: [c.id, ...(c.aliases ?? [])].join(' / '), width: widths[0] },
      { text: c.name, width: widths[1] },
      { text: controlStatus(c), width: widths[2], face: bold, color: c.basis === 'practice' ? MUTED : STATUS_COLOR[c.status] ?? INK },
      { text: String(c.findings.length), width: widths[3], align: 'right' },
      { text: String(c.probes_run), width: widths[4], align: 'right' },
    ]);
  }
}

function compliance(l: Layout, r: ScanReport) {
  const f = r.compliance.frameworks;
  l.heading('Compliance evidence');
  matrix(l, `OWASP Top 10 for LLM Applications ${f.owasp_llm_top10.edition} (2026 ids as aliases)`, f.owasp_llm_top10.controls);
  matrix(l, `NIST AI RMF ${f.nist_ai_rmf.version}`, f.nist_ai_rmf.controls);
  l.text(PRACTICE_NOTE, { size: 8, color: MUTED });
  matrix(l, `SOC 2 CC7 (${f.soc2_cc7.version})`, f.soc2_cc7.controls);
  l.heading('Integrity', 12);
  l.text(`${plural(r.compliance.integrity.event_count, 'event')}; SHA-256 chain over the scan's event log:`, { size: 9 });
  l.text(r.compliance.integrity.chain_sha256, { face: l.fonts.mono, size: 8.5 });
  l.text(`Re-compute it from the export at ${r.links.scan_url}/events (procedure: docs/compliance.md).`, { size: 9, color: MUTED });
}

/** what the scan spent beside its plan, its budget, the models apart: its own section, last */
function requestsAndTokens(l: Layout, r: ScanReport) {
  const lines = spendingLines(r);
  if (!lines.length) return;
  l.heading('Requests and tokens', 12);
  for (const line of lines) l.text(line, { size: 9 });
}

/**
 * Every character the PDF will draw that is not ASCII: what decides which fonts to embed. Only the
 * text the PDF shows is read (bounded evidence, the first variants), not the whole report.
 */
function unusualCharacters(r: ScanReport): Set<string> {
  const shown = JSON.stringify([
    r.target, r.scan, r.score && Object.values(r.score.category_scores).map((c) => c.name), r.techniques_that_worked, r.changes?.fixed_findings,
    r.vulnerabilities.map((v) => [
      v.title, v.category, v.category_name, v.probe_id, v.technique, v.converters, v.how, v.description, v.remediation, v.evidence?.detector, v.evidence?.matched,
      evidenceTurns(v, 4, 360), proofLine(v), v.variants.slice(0, PDF_VARIANTS).map((x) => x.how), v.triage,
    ]),
    Object.values(r.compliance.frameworks).map((f) => f.controls.map((c) => c.name)),
  ]);
  return new Set(shown.match(/[^\x00-\x7f]/gu) ?? []);
}

export async function toPdf(r: ScanReport): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(shapingFontkit as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  doc.setTitle(`Gauntlet security report ${r.scan.id}`);
  doc.setProducer('Gauntlet');
  doc.setCreator('Gauntlet');
  doc.setCreationDate(new Date(Date.parse(r.generated_at) || 0));
  doc.setModificationDate(new Date(Date.parse(r.generated_at) || 0));
  const chars = [...unusualCharacters(r), '·', '…'];
  const [regular, bold, mono] = await Promise.all([new FontStack(doc, 'regular').prepare(chars), new FontStack(doc, 'bold').prepare(chars), new FontStack(doc, 'mono').prepare(chars)]);
  const fonts: Fonts = { regular: new Typeface(regular), bold: new Typeface(bold), mono: new Typeface(mono) };
  // one flow from the cover to the compliance matrix: a section starts where the last one ended,
  // so no page but the last is left half empty
  const l = new Layout(doc, fonts);
  cover(l, r);
  findings(l, r);
  compliance(l, r);
  requestsAndTokens(l, r);

  const pages = doc.getPages();
  const footerId = fonts.regular.clean(`Gauntlet · scan ${r.scan.id}`);
  pages.forEach((page, i) => {
    const label = `Page ${i + 1} of ${pages.length}`;
    page.drawLine({ start: { x: MARGIN, y: MARGIN + 8 }, end: { x: MARGIN + WIDTH, y: MARGIN + 8 }, thickness: 0.4, color: RULE });
    page.drawText(footerId, { x: MARGIN, y: MARGIN - 6, size: 8, font: fonts.regular.font, color: MUTED });
    page.drawText(label, { x: MARGIN + WIDTH - fonts.regular.width(label) * 8, y: MARGIN - 6, size: 8, font: fonts.regular.font, color: MUTED });
  });
  deflatePageContents(doc);
  return doc.save({ useObjectStreams: false });
}

/**
 * pdf-lib deflates page content with pako, in JavaScript: on a report of a few hundred pages that
 * was the largest single cost of rendering. Node's zlib does the same job natively, so each page
 * content stream is swapped for the same bytes deflated there (still FlateDecode, same content).
 */
function deflatePageContents(doc: PDFDocument): void {
  const { context } = doc;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFContentStream) || !object.dict.has(PDFName.of('Filter'))) continue;
    context.assign(ref, PDFRawStream.of(object.dict, deflateSync(object.getUnencodedContents())));
  }
}

export const pdf = reportFormat({
  name: 'pdf',
  label: 'PDF',
  contentType: 'application/pdf',
  extensions: ['pdf'],
  render: async (report) => Buffer.from(await toPdf(report)),
});
