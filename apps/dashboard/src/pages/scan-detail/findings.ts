import { answer, client, type Schemas } from '../../api/client';
import { triageStateLabels, type ScanPhase, type TriageState } from '../../api/enums';
import type { PageContext } from '../../page';
import { severities, severityBadge } from '../../widgets/badges';
import { clear, fill, h, type Child } from '../../widgets/dom';
import { emptyState, loading } from '../../widgets/feedback';
import { button } from '../../widgets/forms';
import { timeEl } from '../../widgets/format';
import { conversation, proofNote } from './conversation';
import { loadScore } from './score';
import { PHASE_LABEL, readScan, type Finding, type Scan } from './scan';

// The findings: while a scan runs, what it proved so far; once it ends, the explorer (filters,
// search, sort, the diff with the last scan) and each finding with its evidence, variants and triage.

export function renderLive(results: HTMLElement, scan: Scan): void {
  clear(results).append(
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'findings-title' },
      h('h2', { id: 'findings-title' }, 'Findings so far'),
      scan.vulnerabilities?.length
        ? findingsList([...scan.vulnerabilities].sort(SORTS.severity.cmp))
        : scan.proven_so_far?.length
          ? provenList(scan.proven_so_far)
          : emptyState('Nothing found yet', 'Findings appear here as soon as the scanner confirms them. The score, compliance matrix and reports follow when the scan finishes.'),
    ),
  );
}

/** weaknesses proven while the scan runs: their evidence, severity and variants are written when it analyses them */
function provenList(proven: Schemas['ProvenWeaknessView'][]): HTMLDivElement {
  return h(
    'div',
    { class: 'proven' },
    h('p', { class: 'hint' }, `${proven.length} weakness${proven.length === 1 ? '' : 'es'} proven so far. Severity, evidence and every other way in are written when the scan analyses them.`),
    h('ul', { class: 'proven-list' }, proven.map((p) => h('li', { 'data-fingerprint': p.fingerprint }, h('span', { class: 'mono' }, p.category), ' ', p.title))),
  );
}

/** a reference is shown as a link only when it is an http(s) URL: never a javascript: href from data */
function referenceNode(ref: string): Child {
  try {
    const u = new URL(ref);
    if (u.protocol === 'https:' || u.protocol === 'http:') return h('a', { href: u.href, rel: 'noopener noreferrer', target: '_blank' }, ref);
  } catch {
    /* not a URL: plain text */
  }
  return ref;
}

/** what the scan sent the target, by phase: escalation against a resisting target shows in amplify */
export function requestsLine(requests: Schemas['RequestsView']): string {
  const phases = Object.entries(requests.by_phase ?? {}).map(([phase, n]) => `${PHASE_LABEL[phase as ScanPhase] ?? phase} ${n}`);
  return `${requests.total} requests sent to the target${phases.length ? ` (${phases.join(', ')})` : ''}.`;
}

const bySeverity = (a: Finding, b: Finding) => severities.indexOf(a.severity) - severities.indexOf(b.severity);
const SORTS: Record<string, { label: string; cmp: (a: Finding, b: Finding) => number }> = {
  severity: { label: 'Severity', cmp: (a, b) => bySeverity(a, b) || a.found_at.localeCompare(b.found_at) },
  found: { label: 'Found first', cmp: (a, b) => a.found_at.localeCompare(b.found_at) },
  category: { label: 'Category', cmp: (a, b) => a.category.localeCompare(b.category) || bySeverity(a, b) },
  variants: { label: 'Most conversations', cmp: (a, b) => (b.conversations ?? 1) - (a.conversations ?? 1) },
  title: { label: 'Title', cmp: (a, b) => a.title.localeCompare(b.title) },
};
const triageState = (v: Finding): TriageState => v.triage?.state ?? 'open';

/**
 * A finished scan's findings: filters (severity, category, triage state, new since the last scan),
 * search, sort, each finding grouped with its variants, triage actions, and the diff.
 */
export function findingsExplorer(ctx: PageContext, scan: Scan): HTMLDivElement {
  let vulns = scan.vulnerabilities;
  let isNew = new Set<string>();
  const select = (name: string, label: string, options: [string, string][]) =>
    h('label', { class: 'filter' }, h('span', null, label), h('select', { name, 'data-filter': name }, options.map(([value, text]) => h('option', { value }, text))));
  const categories = [...new Set(vulns.map((v) => v.category))].sort();
  const search = h('input', { type: 'search', name: 'q', placeholder: 'Search title, probe, evidence…', 'aria-label': 'Search findings', 'data-filter': 'q' });
  const newOnly = h('input', { type: 'checkbox', name: 'new', 'data-filter': 'new' });
  const toolbar = h(
    'form',
    { class: 'findings-toolbar', role: 'search', 'aria-label': 'Filter findings', on: { submit: (e) => e.preventDefault() } },
    search,
    select('severity', 'Severity', [['', 'All'], ...severities.map((s): [string, string] => [s, s])]),
    select('category', 'Category', [['', 'All'], ...categories.map((c): [string, string] => [c, c])]),
    select('triage', 'Triage', [['', 'All'], ...Object.entries(triageStateLabels)]),
    select('sort', 'Sort', Object.entries(SORTS).map(([k, v]): [string, string] => [k, v.label])),
    h('label', { class: 'filter filter-check' }, newOnly, h('span', null, 'New since last scan')),
  );
  const count = h('p', { class: 'hint', role: 'status', id: 'findings-shown' });
  const list = h('div', { class: 'findings-list' });
  const diffLine = h('div', { class: 'diff', id: 'scan-diff' }, loading('Comparing with the last scan…'));

  const render = () => {
    const f = Object.fromEntries(new FormData(toolbar)) as Record<string, string | undefined>;
    const q = String(f.q ?? '').trim().toLowerCase();
    const shown = vulns
      .filter((v) => !f.severity || v.severity === f.severity)
      .filter((v) => !f.category || v.category === f.category)
      .filter((v) => !f.triage || triageState(v) === f.triage)
      .filter((v) => !newOnly.checked || isNew.has(v.id))
      .filter((v) => !q || [v.title, v.category, v.category_name, v.probe_id, ...(v.probes ?? []), ...(v.exposures ?? []).map((e) => e.label ?? e.shape), v.technique, v.how, v.description, v.fingerprint, v.evidence?.proof?.shows, ...(v.evidence?.turns ?? []).flatMap((t) => [t.content, ...(t.tool_calls ?? []).map((c) => `${c.name} ${JSON.stringify(c.arguments)}`)])].some((x) => String(x ?? '').toLowerCase().includes(q)))
      .sort(SORTS[f.sort || 'severity'].cmp);
    count.textContent = `Showing ${shown.length} of ${vulns.length} finding${vulns.length === 1 ? '' : 's'}.`;
    fill(list, shown.length ? findingsList(shown, { isNew, onTriage, scanId: scan.id }) : emptyState('No finding matches', 'Change the filters or clear the search.'));
  };
  async function onTriage() {
    // triage applies to the fingerprint on the target: reload the list and the score after triage
    const fresh = await readScan(scan.id);
    if (!ctx.alive()) return;
    vulns = fresh.vulnerabilities;
    render();
    const slot = document.querySelector('section[aria-labelledby="score-title"]');
    if (slot) void loadScore(ctx, slot, fresh);
  }
  toolbar.addEventListener('input', render);
  toolbar.addEventListener('change', render);
  render();

  answer(client.GET('/api/scans/{id}/diff', { params: { path: { id: scan.id } } }))
    .then((d) => {
      if (!ctx.alive()) return;
      isNew = new Set(d.new);
      const byPrint = d.fixed.length ? h('ul', { class: 'plain fixed' }, d.fixed.map((fp) => h('li', { class: 'mono' }, fp))) : null;
      fill(
        diffLine,
        d.base_scan_id
          ? h('p', null, 'Since the ', h('a', { href: `/app/scans/${d.base_scan_id}` }, 'last scan'), `: ${d.new.length} new, ${d.still_open.length} still open, ${d.fixed.length} fixed${d.not_reproduced?.length ? `, ${d.not_reproduced.length} not reproduced this time` : ''}${d.not_retested?.length ? `, ${d.not_retested.length} not retested` : ''}.`)
          : h('p', null, `The first finished scan of this target: all ${d.new.length} findings are new.`),
        d.fixed.length ? [h('h4', null, 'Fixed since the last scan'), byPrint] : null,
      );
      render();
    })
    .catch((err: Error) => ctx.alive() && fill(diffLine, h('p', { class: 'hint' }, `No comparison with the last scan: ${err.message}`)));

  return h('div', { class: 'findings-explorer' }, diffLine, toolbar, count, list);
}

function triageForm(v: Finding, scanId: string, onTriage: () => Promise<void>): HTMLFormElement {
  const state = h('select', { name: 'state', 'aria-label': 'Triage state' }, Object.entries(triageStateLabels).map(([value, text]) => h('option', { value, selected: triageState(v) === value }, text)));
  const reason = h('input', { name: 'reason', required: true, maxlength: 2000, placeholder: 'Why (kept with the decision)', 'aria-label': 'Reason' });
  const expires = h('input', { name: 'expires_at', type: 'date', 'aria-label': 'Accepted until', hidden: triageState(v) !== 'accepted_risk' });
  const status = h('p', { class: 'hint', role: 'status' });
  state.addEventListener('change', () => (expires.hidden = state.value !== 'accepted_risk'));
  const save = button('Save triage', { class: 'btn btn-small', type: 'submit' });
  const form = h('form', { class: 'triage-form', 'aria-label': 'Triage this finding' }, state, reason, expires, save, status);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const body: Schemas['TriageBody'] = { state: state.value as TriageState, reason: reason.value };
    if (state.value === 'accepted_risk' && expires.value) body.expires_at = new Date(`${expires.value}T23:59:59Z`).toISOString();
    save.disabled = true;
    try {
      await answer(client.POST('/api/scans/{id}/vulnerabilities/{vulnerability_id}/triage', { params: { path: { id: scanId, vulnerability_id: v.id } }, body }));
      status.textContent = 'Saved: it applies to this weakness in this and later scans of the target.';
      await onTriage();
    } catch (err) {
      status.textContent = (err as Error).message;
    } finally {
      save.disabled = false;
    }
  });
  return form;
}

export function findingsList(vulns: Finding[], { isNew = new Set<string>(), onTriage, scanId }: { isNew?: Set<string>; onTriage?: () => Promise<void>; scanId?: string } = {}): HTMLUListElement {
  return h(
    'ul',
    { class: 'findings' },
    vulns.map((v) =>
      h(
        'li',
        { class: 'finding', id: `finding-${v.id}`, dataset: { findingId: v.id, triage: triageState(v) } },
        h(
          'details',
          null,
          h(
            'summary',
            null,
            severityBadge(v.severity),
            h('span', { class: 'finding-title' }, v.title),
            isNew.has(v.id) ? h('span', { class: 'badge badge-new' }, 'New') : null,
            v.triage && v.triage.state !== 'open' ? h('span', { class: `badge triage-${v.triage.state}` }, triageStateLabels[v.triage.state]) : null,
            (v.conversations ?? 1) > 1 ? h('span', { class: 'badge badge-variants', title: 'conversations and probes that showed this weakness' }, `${v.conversations} conversations, ${v.probes?.length ?? 1} probe${(v.probes?.length ?? 1) === 1 ? '' : 's'}`) : null,
            h('span', { class: 'finding-cat mono' }, v.category),
            h('span', { class: 'finding-catname' }, v.category_name),
          ),
          h(
            'div',
            { class: 'finding-body' },
            v.triage
              ? h('p', { class: 'triage-line' }, `Triage: ${triageStateLabels[v.triage.state]}${v.triage.lapsed === 'expired' ? ' (the accepted risk expired)' : v.triage.lapsed === 'found_again' ? ' (marked fixed, found again)' : ''} by ${v.triage.by_name ?? v.triage.by}, ${new Date(v.triage.at).toLocaleString()}: ${v.triage.reason}${v.triage.expires_at ? ` (until ${new Date(v.triage.expires_at).toLocaleDateString()})` : ''}`)
              : null,
            onTriage && scanId ? triageForm(v, scanId, onTriage) : null,
            v.how ? h('p', { class: 'finding-how' }, h('strong', null, 'How it got through: '), v.how) : null,
            h('p', null, v.description),
            h(
              'dl',
              { class: 'dl dl-inline' },
              h('dt', null, 'Shown by'), h('dd', null, `${v.probes?.length ?? 1} probe${(v.probes?.length ?? 1) === 1 ? '' : 's'} in ${v.conversations ?? 1} conversation${(v.conversations ?? 1) === 1 ? '' : 's'}: ${(v.probes ?? [v.probe_id]).join(', ')}`),
              h('dt', null, 'Evidence from'), h('dd', null, `probe ${v.probe_id}`),
              h('dt', null, 'Technique'), h('dd', null, v.technique ?? '—'),
              h('dt', null, 'Converters'), h('dd', null, v.converters?.length ? v.converters.join(', ') : 'none'),
              h('dt', null, 'Confidence'), h('dd', null, typeof v.confidence === 'number' ? `${Math.round(v.confidence * 100)}%` : '—'),
              h('dt', null, 'Detector'), h('dd', null, v.evidence?.detector ?? '—'),
              h('dt', null, 'Phase'), h('dd', null, v.phase ?? '—'),
              h('dt', null, 'Found'), h('dd', null, timeEl(v.found_at)),
            ),
            h('h4', null, 'Evidence'),
            conversation(v.evidence),
            v.evidence?.proof ? proofNote(v.evidence.proof) : v.evidence?.matched ? h('p', { class: 'matched' }, 'Matched: ', h('code', null, v.evidence.matched)) : null,
            v.variants?.length
              ? [
                  h('h4', null, `Other conversations that showed it (${v.variants.length} of ${(v.conversations ?? v.variants.length + 1) - 1})`),
                  h('ul', { class: 'plain variants' }, v.variants.map((x) => h('li', null, h('span', { class: 'mono' }, x.probe_id ?? v.probe_id), ': ', x.how ?? [x.technique, ...(x.converters ?? [])].join(' + '), ' ', timeEl(x.found_at)))),
                ]
              : null,
            h('h4', null, 'Remediation'),
            h('p', { class: 'remediation' }, v.remediation ?? '—'),
            v.references?.length ? [h('h4', null, 'References'), h('ul', { class: 'plain refs' }, v.references.map((r) => h('li', null, referenceNode(r))))] : null,
          ),
        ),
      ),
    ),
  );
}
