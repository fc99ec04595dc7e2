import { createHash } from 'node:crypto';
import type { ControlEvidence, ScanReport } from '@gauntlet/assessment';
import { evidenceText, pct, plural, proofHighlight, proofLine, SEVERITY_LABEL, techniqueLabel } from '../common';
import { reportFormat } from './report-format';
import { partialLine, anyTriaged, changesLine, controlStatus, PRACTICE_NOTE, scoreLine, spendingLines, triageLine, triageText } from '../summary';

/** Every piece of text goes through this: finding text quotes attacker-chosen output. */
/** the proof's span highlighted where the (escaped) conversation shows it, the first time */
function marked(escaped: string, proof: string | null | undefined): string {
  if (!proof) return escaped;
  const needle = e(proof);
  const at = escaped.indexOf(needle);
  return at < 0 ? escaped : `${escaped.slice(0, at)}<mark>${needle}</mark>${escaped.slice(at + needle.length)}`;
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c1c1c;max-width:1100px;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem}h2{border-bottom:2px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.n{text-align:right}
.score{display:inline-block;font-size:2.4rem;font-weight:700;padding:.4rem 1rem;border-radius:8px;background:#f4f4f4}
.sev{display:inline-block;border-radius:4px;padding:0 .4rem;color:#fff;font-weight:600;font-size:.85rem}
.critical{background:#b00020}.high{background:#e65100}.medium{background:#a07800}.low{background:#1565c0}
.pass{color:#1b5e20;font-weight:600}.fail{color:#b00020;font-weight:600}.not_tested,.practice{color:#666}
.new{color:#b00020;font-weight:600}.triaged{color:#555;font-style:italic}
.finding{border:1px solid #ddd;border-radius:6px;padding:.6rem 1rem;margin:1rem 0}
pre{background:#f7f7f7;padding:.6rem;white-space:pre-wrap;word-break:break-word;font-size:.85rem}
.meta{color:#555;font-size:.9rem}code{word-break:break-all}
.proof{font-weight:600;border-left:3px solid #b45309;padding-left:.5rem}mark{background:#fde68a;color:inherit}
`;
const STYLE_HASH = createHash('sha256').update(STYLE, 'utf8').digest('base64');
/** No script may run, nothing may load: the only thing allowed is the one inline style, by hash. */
export const REPORT_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`;

const e = escapeHtml;
const tr = (cells: unknown[], numeric: number[] = []) => `<tr>${cells.map((c, i) => `<td${numeric.includes(i) ? ' class="n"' : ''}>${e(c)}</td>`).join('')}</tr>`;
const thead = (cells: string[]) => `<thead><tr>${cells.map((c) => `<th>${e(c)}</th>`).join('')}</tr></thead>`;

function controls(title: string, list: ControlEvidence[]): string {
  const rows = list.map(
    (c) => `<tr><td>${e([c.id, ...(c.aliases ?? [])].join(' / '))}</td><td>${e(c.name)}</td><td class="${c.basis === 'practice' ? 'practice' : e(c.status)}">${e(controlStatus(c))}</td><td class="n">${c.findings.length}</td><td class="n">${c.probes_run}</td></tr>`,
  );
  return `<h3>${e(title)}</h3><table>${thead(['Control', 'Name', 'Status', 'Findings', 'Probes run'])}<tbody>${rows.join('')}</tbody></table>`;
}

export function toHtml(r: ScanReport): string {
  const s = r.score;
  const parts: string[] = [];
  const title = `Gauntlet security report: ${r.target.name ?? r.target.url ?? r.scan.id}`;
  parts.push(
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${e(REPORT_CSP)}">`,
    '<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${e(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${e(title)}</h1>`,
    `<table><tbody>`,
    tr(['Scan', r.scan.id]),
    tr(['Target', [r.target.name, r.target.url].filter(Boolean).join(' — ')]),
    tr(['Mode / profile', `${r.target.scan_mode ?? '-'} / ${r.scan.profile ?? '-'}`]),
    tr(['Status', r.scan.status + (r.scan.reason ? ` (${r.scan.reason})` : '')]),
    tr(['Started', r.scan.started_at ?? r.scan.requested_at ?? '']),
    tr(['Finished', r.scan.finished_at ?? '']),
    tr(['Duration', r.scan.duration_seconds === null ? '' : `${r.scan.duration_seconds} s`]),
    tr(['Generated', r.generated_at]),
    '</tbody></table>',
    '<h2>Score</h2>',
  );
  if (s) {
    parts.push(
      `<p><span class="score">${s.overall_score} · ${e(r.scan.grade_label ?? s.grade)}</span> <span class="meta">scoring version ${e(s.scoring_version)}</span></p>`,
      ...(r.scan.partial ? [`<p class="partial"><strong>Partial scan:</strong> ${e(partialLine(r))}</p>`] : []),
      `<p><span class="sev critical">Critical ${s.critical_count}</span> <span class="sev high">High ${s.high_count}</span> <span class="sev medium">Medium ${s.medium_count}</span> <span class="sev low">Low ${s.low_count}</span></p>`,
      `<p>${e(scoreLine(r))}</p><p>Triage: ${e(triageLine(r))}</p><p>Since the last scan: ${e(changesLine(r))}</p>`,
      `<table>${thead(['Category', 'Name', 'Score', 'After triage', 'Probes run', 'Attacks succeeded', 'Findings'])}<tbody>`,
      ...Object.entries(s.category_scores).map(([id, c]) =>
        tr([id, c.name, c.score, anyTriaged(r) ? r.triage.score_after_triage?.category_scores[id]?.score ?? 100 : c.score, c.probes_run, c.probes_failed, c.findings], [2, 3, 4, 5, 6]),
      ),
      '</tbody></table>',
    );
  } else parts.push(`<p>No score: the scan ended ${e(r.scan.status)}.</p>`);

  parts.push(
    '<h2>Attempts</h2>',
    `<p>${plural(r.attempts.total, 'attempt')}: ${r.attempts.run} ran, ${r.attempts.failed} succeeded against the target, ${plural(r.attempts.errors, 'error')}.</p>`,
    `<table>${thead(['Technique', 'Run', 'Succeeded', 'Success rate'])}<tbody>`,
    ...r.attempts.by_technique.map((g) => tr([g.key, g.run, g.failed, pct(g.success_rate)], [1, 2, 3])),
    '</tbody></table>',
  );
  if (r.techniques_that_worked.length) {
    parts.push('<h3>Techniques that worked</h3><ul>');
    for (const t of r.techniques_that_worked) {
      parts.push(`<li>${e(techniqueLabel(t.technique, t.converters))}: ${t.succeeded} of ${t.attempted} <span class="meta">(${e(t.categories.join(', '))})</span></li>`);
    }
    parts.push('</ul>');
  }

  parts.push(`<h2>Findings (${r.vulnerabilities.length})</h2>`);
  r.vulnerabilities.forEach((v, i) => {
    const turns = evidenceText(v);
    parts.push(
      `<section class="finding"><h3>${i + 1}. <span class="sev ${e(v.severity)}">${SEVERITY_LABEL[v.severity]}</span> ${e(v.title)}</h3>`,
      v.change ? `<p class="${v.change === 'new' ? 'new' : 'meta'}">${v.change === 'new' ? 'New since the last scan' : 'Still open since the last scan'}</p>` : '',
      v.triage ? `<p class="triaged">${e(triageText(v.triage))}</p>` : '',
      `<p class="meta">${e(v.category)} ${e(v.category_name)} · probe ${e(v.probe_id)} · technique ${e(v.technique)}${v.converters.length ? ` · converters ${e(v.converters.join(', '))}` : ''} · confidence ${pct(v.confidence)} · ${e(v.phase)} · ${e(v.found_at)} · id ${e(v.id)}</p>`,
      `<p><strong>How it got through:</strong> ${e(v.how)}</p>`,
      `<p>${e(v.description)}</p>`,
      `<p><strong>Evidence</strong> <span class="meta">detector ${e(v.evidence?.detector)}${v.evidence?.matched ? `, matched <code>${e(v.evidence.matched)}</code>` : ''}</span></p>`,
      proofLine(v) ? `<p class="proof">${e(proofLine(v))}</p>` : '',
      `<pre>${marked(e(turns), proofHighlight(v))}</pre>`,
      `<p><strong>Remediation:</strong> ${e(v.remediation)}</p>`,
      v.variants.length ? `<p><strong>Also got through (${plural(v.variants.length, 'other way')}):</strong></p><ul>${v.variants.map((x) => `<li>${e(x.how)} <span class="meta">${e(x.found_at)}</span></li>`).join('')}</ul>` : '',
      // references are shown, not linked: a report must not carry clickable target-supplied URLs
      v.references.length ? `<p class="meta">References: ${v.references.map((ref) => `<code>${e(ref)}</code>`).join(' ')}</p>` : '',
      '</section>',
    );
  });

  if (r.changes?.fixed_findings.length) {
    parts.push(`<h2>Fixed since the last scan (${r.changes.fixed_findings.length})</h2><ul>`);
    for (const fx of r.changes.fixed_findings) parts.push(`<li><span class="sev ${e(fx.severity)}">${SEVERITY_LABEL[fx.severity]}</span> ${e(fx.title)} <code>${e(fx.fingerprint)}</code></li>`);
    parts.push('</ul>');
  }
  const f = r.compliance.frameworks;
  parts.push(
    '<h2>Compliance evidence</h2>',
    controls(`OWASP Top 10 for LLM Applications ${f.owasp_llm_top10.edition} (2026 ids as aliases)`, f.owasp_llm_top10.controls),
    controls(`NIST AI RMF ${f.nist_ai_rmf.version}`, f.nist_ai_rmf.controls),
    `<p class="meta">${e(PRACTICE_NOTE)}</p>`,
    controls(`SOC 2 CC7 (${f.soc2_cc7.version})`, f.soc2_cc7.controls),
    '<h2>Integrity</h2>',
    `<p>${plural(r.compliance.integrity.event_count, 'event')}, chain SHA-256 <code>${e(r.compliance.integrity.chain_sha256)}</code>. Event export: <code>${e(r.links.scan_url)}/events</code></p>`,
  );
  const spending = spendingLines(r);
  if (spending.length) parts.push('<h2>Requests and tokens</h2><ul>', ...spending.map((line) => `<li>${e(line)}</li>`), '</ul>');
  parts.push('</body></html>');
  return parts.join('\n');
}

export const html = reportFormat({
  name: 'html',
  label: 'HTML',
  contentType: 'text/html; charset=utf-8',
  extensions: ['html', 'htm'],
  render: (report) => Buffer.from(toHtml(report), 'utf8'),
});
