import type { ControlEvidence, ScanReport } from '@gauntlet/assessment';
import { evidenceText, pct, plural, proofLine, SEVERITY_LABEL, techniqueLabel } from '../common';
import { reportFormat } from './report-format';
import { anyTriaged, changesLine, controlStatus, partialLine, PRACTICE_NOTE, scoreLine, spendingLines, triageLine, triageText } from '../summary';

/**
 * Escapes text that the target or the user controls (target names, model replies, finding
 * titles) so it renders as the characters it is: no links, emphasis, headings or raw HTML. Only
 * what CommonMark (and GFM's tables, strikethrough and autolinks) would read as markup is escaped,
 * so the file still reads as plain text: `127.0.0.1` and `2026-11-26` stay as they are.
 * - anywhere: `\`, backticks, `*`, `[`, `]`, `<`, `>`, `|`, `~`; `_` where it could open or close
 *   emphasis (not inside a word); `&` before what would be an entity; `://` and `www.`, which GFM
 *   would turn into links;
 * - at the start (where a block begins): a heading's `#`s, a list's `-`, `+` or number and `.` or
 *   `)` followed by a blank, a rule of `-`.
 * Line breaks become spaces and leading blanks go (they would make an indented code block).
 */
export function mdText(value: unknown): string {
  return String(value ?? '')
    .replace(/\r\n?|\n/g, ' ')
    .replace(/^[ \t]+/, '')
    .replace(/[\\`*[\]<>|~]/g, (c) => `\\${c}`)
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    .replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&')
    .replace(/:\/\//g, '\\://')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/^(#{1,6}|[+-])(?=[ \t]|$)/, '\\$1')
    .replace(/^-(?=[- \t]*$)/, '\\-')
    .replace(/^(\d{1,9})([.)])(?=[ \t]|$)/, '$1\\$2');
}

/** Text the report itself owns that reads best verbatim (addresses, ids): a code span, never a link. */
export function mdCode(value: unknown): string {
  const text = String(value ?? '').replace(/\r\n?|\n/g, ' ');
  if (!text) return '';
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text.replace(/\|/g, '\\|')}${pad}${ticks}`;
}

/** A fenced block one backtick longer than any run inside, so quoted text cannot close it. */
export function mdFence(content: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${content}\n${fence}`;
}

/** the catalogue's references are ours: a plain https address stays a link, anything else is text */
const reference = (ref: string) => (/^https:\/\/[^\s<>()[\]|\\`*_~]+$/.test(ref) ? ref : mdText(ref));

const row = (cells: unknown[]) => `| ${cells.map(mdText).join(' | ')} |`;

function controlsTable(controls: ControlEvidence[]): string[] {
  return [
    row(['Control', 'Name', 'Status', 'Findings', 'Probes run']),
    '| --- | --- | --- | ---: | ---: |',
    ...controls.map((c) => row([[c.id, ...(c.aliases ?? [])].join(' / '), c.name, controlStatus(c), c.findings.length, c.probes_run])),
  ];
}

export function toMarkdown(r: ScanReport): string {
  const out: string[] = [];
  const s = r.score;
  out.push(`# Gauntlet security report: ${mdText(r.target.name ?? r.target.url ?? r.scan.id)}`, '');
  out.push(
    row(['Field', 'Value']),
    '| --- | --- |',
    `| Scan | ${mdCode(r.scan.id)} |`,
    `| Target | ${[mdText(r.target.name ?? ''), mdCode(r.target.url ?? '')].filter(Boolean).join(' ')} |`,
    row(['Mode', r.target.scan_mode ?? '']),
    row(['Profile', r.scan.profile ?? '']),
    row(['Status', r.scan.status + (r.scan.reason ? ` (${r.scan.reason})` : '')]),
    ...(r.scan.partial ? [row(['Coverage', partialLine(r)])] : []),
    row(['Started', r.scan.started_at ?? r.scan.requested_at ?? '']),
    row(['Finished', r.scan.finished_at ?? '']),
    row(['Duration', r.scan.duration_seconds === null ? '' : `${r.scan.duration_seconds} s`]),
    row(['Report generated', r.generated_at]),
    '',
  );
  out.push('## Score', '');
  if (s) {
    out.push(`**${s.overall_score} / 100, grade ${mdText(r.scan.grade_label ?? s.grade)}** (scoring version ${mdText(s.scoring_version)})`, '');
    if (r.scan.partial) out.push(`**Partial scan:** ${mdText(partialLine(r))}`, '');
    out.push(mdText(scoreLine(r)), '', `Triage: ${mdText(triageLine(r))}`, '', `Since the last scan: ${mdText(changesLine(r))}`, '');
    out.push(row(['Critical', 'High', 'Medium', 'Low']), '| ---: | ---: | ---: | ---: |', row([s.critical_count, s.high_count, s.medium_count, s.low_count]), '');
    const after = anyTriaged(r) ? r.triage.score_after_triage : null;
    out.push(row(['Category', 'Name', 'Score', 'After triage', 'Probes run', 'Attacks succeeded', 'Findings']), '| --- | --- | ---: | ---: | ---: | ---: | ---: |');
    for (const [id, c] of Object.entries(s.category_scores)) out.push(row([id, c.name, c.score, after ? after.category_scores[id]?.score ?? 100 : c.score, c.probes_run, c.probes_failed, c.findings]));
    out.push('');
  } else {
    out.push(`No score: the scan ended ${mdText(r.scan.status)}.`, '');
  }

  out.push('## Attempts', '', `${plural(r.attempts.total, 'attempt')}: ${r.attempts.run} ran, ${r.attempts.failed} succeeded against the target, ${plural(r.attempts.errors, 'error')}.`, '');
  out.push(row(['Technique', 'Run', 'Succeeded', 'Success rate']), '| --- | ---: | ---: | ---: |');
  for (const g of r.attempts.by_technique) out.push(row([g.key, g.run, g.failed, pct(g.success_rate)]));
  out.push('');
  if (r.techniques_that_worked.length) {
    out.push('### Techniques that worked', '');
    for (const t of r.techniques_that_worked) {
      out.push(`- ${mdText(techniqueLabel(t.technique, t.converters))}: ${t.succeeded} of ${t.attempted} (${mdText(t.categories.join(', '))})`);
    }
    out.push('');
  }

  out.push(`## Findings (${r.vulnerabilities.length})`, '');
  r.vulnerabilities.forEach((v, i) => {
    out.push(`### ${i + 1}. ${SEVERITY_LABEL[v.severity]}: ${mdText(v.title)}`, '');
    out.push(
      ...(v.change ? [`- Since the last scan: ${v.change === 'new' ? '**new**' : 'still open'}`] : []),
      ...(v.triage ? [`- ${mdText(triageText(v.triage))}`] : []),
      `- Id: ${mdCode(v.id)}, fingerprint ${mdCode(v.fingerprint)}`,
      `- Category: ${mdText(`${v.category} ${v.category_name}`)}`,
      `- Probe: ${mdText(v.probe_id)}, technique ${mdText(v.technique)}${v.converters.length ? `, converters ${mdText(v.converters.join(', '))}` : ''}`,
      `- Confidence: ${pct(v.confidence)}, phase ${mdText(v.phase)}, found ${mdText(v.found_at)}`,
      `- How it got through: ${mdText(v.how)}`,
      '',
      mdText(v.description),
      '',
      `**Evidence** (detector ${mdText(v.evidence?.detector ?? '')}${v.evidence?.matched ? `, matched ${mdText(v.evidence.matched)}` : ''}):`,
      '',
      ...(proofLine(v) ? [`**${mdText(proofLine(v)!)}**`, ''] : []),
      mdFence(evidenceText(v)),
      '',
      `**Remediation:** ${mdText(v.remediation)}`,
      '',
    );
    if (v.variants.length) {
      out.push(`**Also got through (${plural(v.variants.length, 'other way')}):**`, '', ...v.variants.map((x) => `- ${mdText(x.how)} (${mdText(x.found_at)})`), '');
    }
    if (v.references.length) out.push(...v.references.map((ref) => `- ${reference(ref)}`), '');
  });

  if (r.changes?.fixed_findings.length) {
    out.push(`## Fixed since the last scan (${r.changes.fixed_findings.length})`, '');
    for (const f of r.changes.fixed_findings) out.push(`- ${SEVERITY_LABEL[f.severity]}: ${mdText(f.title)} (${mdCode(f.fingerprint)})`);
    out.push('');
  }

  const f = r.compliance.frameworks;
  out.push('## Compliance evidence', '');
  out.push(`### OWASP Top 10 for LLM Applications ${mdText(f.owasp_llm_top10.edition)} (2026 ids as aliases)`, '', ...controlsTable(f.owasp_llm_top10.controls), '');
  out.push(`### NIST AI RMF ${mdText(f.nist_ai_rmf.version)}`, '', ...controlsTable(f.nist_ai_rmf.controls), '', mdText(PRACTICE_NOTE), '');
  out.push(`### SOC 2 CC7 (${mdText(f.soc2_cc7.version)})`, '', ...controlsTable(f.soc2_cc7.controls), '');
  out.push('## Integrity', '', `${plural(r.compliance.integrity.event_count, 'event')}, chain SHA-256 \`${r.compliance.integrity.chain_sha256}\`. Verify with the event export: ${mdCode(`${r.links.scan_url}/events`)}`, '');
  const spending = spendingLines(r);
  if (spending.length) out.push('## Requests and tokens', '', ...spending.map((line) => `- ${mdText(line)}`), '');
  return out.join('\n');
}

export const markdown = reportFormat({
  name: 'markdown',
  label: 'Markdown',
  contentType: 'text/markdown; charset=utf-8',
  extensions: ['md', 'markdown'],
  render: (report) => Buffer.from(toMarkdown(report), 'utf8'),
});
