import { answer, ApiError, client, type Schemas } from '../api/client';
import { scanPhases, turnRoles, type ControlStatus, type ProofKind, type ReportFormat, type ScanPhase, type TriageState } from '../api/enums';
import type { PageContext } from '../page';
import { isTerminal, severities, severityBadge, statusBadge } from '../widgets/badges';
import { categoryBars } from '../widgets/charts';
import { clear, fill, h, type Child } from '../widgets/dom';
import { confirmDialog, emptyState, loading, notice, pageHeader } from '../widgets/feedback';
import { button } from '../widgets/forms';
import { gradeClass, gradeText, timeEl } from '../widgets/format';

type Scan = Schemas['ScanDetailView'];
type Status = Schemas['ScanStatusView'];
type Finding = Schemas['VulnerabilityView'];
type Proof = Schemas['ProofView'];
type Control = Schemas['ControlEvidenceView'];

const PHASE_LABEL: Readonly<Record<ScanPhase, string>> = { queued: 'Queued', recon: 'Recon', probe: 'Probe', amplify: 'Amplify', analyze: 'Analyze', report: 'Report', done: 'Done' };
/** in the order the buttons show */
const REPORT_LABEL: Readonly<Record<ReportFormat, string>> = { json: 'JSON', pdf: 'PDF', html: 'HTML', csv: 'CSV', markdown: 'Markdown' };
// every 2 s: a tab polling a running scan spends 30 of the 120 requests a minute the api allows
// one IP (api-spec.md section 8), and leaves room for the rest of the dashboard and other tabs
const POLL_MS = 2000;

const status = (err: unknown) => (err instanceof ApiError ? err.status : undefined);
const readScan = (id: string) => answer(client.GET('/api/scans/{id}', { params: { path: { id } } }));

export async function detail(ctx: PageContext): Promise<void> {
  let scan: Scan;
  try {
    scan = await readScan(ctx.params.id);
  } catch (err) {
    if (status(err) === 404 || status(err) === 400) {
      ctx.main.append(pageHeader('Scan not found', { back: { href: '/app/scans', label: 'Scans' } }), notice('info', 'This scan does not exist or belongs to another account.', h('a', { href: '/app/scans' }, 'See your scans')));
      return;
    }
    throw err;
  }
  if (!ctx.alive()) return;

  const cancelBtn = button('Cancel scan', { class: 'btn btn-danger-ghost' });
  cancelBtn.addEventListener('click', async () => {
    if (!(await confirmDialog({ title: 'Cancel this scan?', text: 'Probing stops; what was found so far is kept.', confirm: 'Cancel scan', danger: true }))) return;
    try {
      await answer(client.POST('/api/scans/{id}/cancel', { params: { path: { id: scan.id } } }));
      ctx.toast('Scan cancelled.');
    } catch (err) {
      ctx.toast((err as Error).message, 'error');
    }
  });
  const header = pageHeader(`Scan of ${scan.target_name}`, {
    sub: `${scan.profile} profile · requested ${new Date(scan.created_at).toLocaleString()}`,
    back: { href: `/app/targets/${scan.target_id}`, label: scan.target_name },
    actions: cancelBtn,
  });
  const progress = progressCard();
  const results = h('div', { class: 'results' });
  ctx.main.append(header, progress.el, results);

  let shownFindings = -1;
  let shownPhase: string | null = null;
  let finished = false;
  const apply = async (s: Status) => {
    progress.update(s);
    cancelBtn.hidden = isTerminal(s.status);
    if (isTerminal(s.status) && !finished) {
      finished = true;
      scan = await readScan(scan.id);
      if (!ctx.alive()) return;
      renderResults(ctx, results, scan);
    } else if (!isTerminal(s.status) && (s.findings_so_far !== shownFindings || s.phase !== shownPhase)) {
      // weaknesses are counted as they are proven and written as findings at analyze: fetch the list when either moved
      shownFindings = s.findings_so_far;
      shownPhase = s.phase;
      if (s.findings_so_far > 0) scan = await readScan(scan.id);
      if (!ctx.alive()) return;
      renderLive(results, scan);
    }
  };
  await apply(scan);

  if (!isTerminal(scan.status)) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      if (stopped) return;
      try {
        if (!document.hidden) {
          const now = await answer(client.GET('/api/scans/{id}/status', { params: { path: { id: scan.id } } }));
          if (!ctx.alive()) return;
          await apply(now);
          if (isTerminal(now.status)) return;
        }
      } catch (err) {
        if (!ctx.alive()) return;
        // over the rate limit: wait as long as the service asks, quietly, then go on polling
        if (err instanceof ApiError && err.status === 429 && err.retryAfterSeconds) {
          timer = setTimeout(tick, err.retryAfterSeconds * 1000);
          return;
        }
        progress.error((err as Error).message);
      }
      timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    ctx.onLeave(() => {
      stopped = true;
      clearTimeout(timer);
    });
  }
}

function progressCard() {
  const status = h('span');
  const bar = h('progress', { max: 100, value: 0, id: 'scan-progress', 'aria-describedby': 'scan-progress-text' });
  const pct = h('span', { id: 'scan-progress-text', class: 'pct' });
  const steps = h('ol', { class: 'phases', 'aria-label': 'Scan phases' });
  const findings = h('strong', { class: 'findings-count' }, '0');
  const findingsLabel = h('span', null, 'Findings so far: ');
  const reason = h('p', { class: 'reason', hidden: true });
  const err = h('p', { class: 'field-error', role: 'alert' });
  // announces changes of phase, status and findings (not every percent, which would be noise)
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true', id: 'scan-live' });
  const el = h(
    'section',
    { class: 'card progress-card', 'aria-labelledby': 'progress-title' },
    h('div', { class: 'progress-head' }, h('h2', { id: 'progress-title' }, 'Progress'), status),
    h('div', { class: 'progress-row' }, h('label', { for: 'scan-progress', class: 'visually-hidden' }, 'Scan progress'), bar, pct),
    steps,
    h('p', { class: 'findings-line' }, findingsLabel, findings),
    reason,
    err,
    live,
  );
  let last = '';
  return {
    el,
    update(s: Status) {
      err.textContent = '';
      clear(status).append(statusBadge(s.status));
      bar.value = s.progress ?? 0;
      pct.textContent = `${s.progress ?? 0}%`;
      findings.textContent = String(s.findings_so_far ?? 0);
      findingsLabel.textContent = isTerminal(s.status) ? 'Findings: ' : 'Findings so far: ';
      const at = scanPhases.indexOf(s.phase);
      clear(steps).append(
        ...scanPhases.map((p, i) =>
          h('li', { class: i < at || s.phase === 'done' ? 'phase done' : i === at ? 'phase current' : 'phase', 'aria-current': i === at && s.phase !== 'done' ? 'step' : null }, PHASE_LABEL[p]),
        ),
      );
      if (s.reason) {
        reason.hidden = false;
        reason.textContent = `Reason: ${s.reason}`;
      }
      const said = `Scan ${String(s.status).replace('_', ' ')}, phase ${s.phase}, ${s.findings_so_far ?? 0} findings.`;
      if (said !== last) live.textContent = said;
      last = said;
    },
    error(message: string) {
      err.textContent = `Could not refresh the progress: ${message} Retrying…`;
    },
  };
}

function renderLive(results: HTMLElement, scan: Scan): void {
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

function renderResults(ctx: PageContext, results: HTMLElement, scan: Scan): void {
  clear(results);
  const scoreSlot = h('section', { class: 'card', 'aria-labelledby': 'score-title' }, h('h2', { id: 'score-title' }, 'Security score'), loading('Loading the score…'));
  const reportSlot = reportsCard(ctx, scan);
  const findings = h(
    'section',
    { class: 'card', 'aria-labelledby': 'findings-title' },
    h('h2', { id: 'findings-title' }, `Findings (${scan.vulnerabilities?.length ?? 0})`),
    scan.requests ? h('p', { class: 'hint requests-line' }, requestsLine(scan.requests)) : null,
    scan.vulnerabilities?.length ? findingsExplorer(ctx, scan) : emptyState('No vulnerabilities found', scan.status === 'completed' ? 'Every probe was resisted. Scan again after each change to the model, prompt or tools.' : 'This scan did not complete, so this list may be incomplete.'),
  );
  const compliance = h('section', { class: 'card', 'aria-labelledby': 'compliance-title' }, h('h2', { id: 'compliance-title' }, 'Compliance evidence'), loading('Loading compliance evidence…'));
  results.append(h('div', { class: 'two-col' }, h('div', { class: 'col-main' }, scoreSlot), h('aside', { class: 'col-side' }, reportSlot)), findings, compliance);
  void loadScore(ctx, scoreSlot, scan);
  void loadCompliance(ctx, compliance, scan);
}

function severityCounts(counts: Partial<Record<string, number>> | undefined): HTMLUListElement {
  return h(
    'ul',
    { class: 'sev-counts', 'aria-label': 'Findings by severity' },
    severities.map((s) => h('li', { class: `sev-count sev-${s}` }, h('span', { class: 'n' }, String(counts?.[s] ?? 0)), h('span', { class: 'l' }, s))),
  );
}

async function loadScore(ctx: PageContext, slot: Element, scan: Scan): Promise<void> {
  const heading = slot.querySelector('h2');
  const done = (...nodes: Child[]) => {
    if (!ctx.alive()) return;
    fill(slot, heading, ...nodes);
  };
  if (scan.status === 'failed' || scan.status === 'cancelled') {
    return done(notice('info', scan.status === 'failed' ? `This scan failed${scan.reason ? `: ${scan.reason}` : ''}. Failed scans have no score; fix the target settings and scan again.` : `This scan was cancelled${scan.cancelled_by_name ? ` by ${scan.cancelled_by_name}` : ''}, so it has no score. Start a new scan from the target page.`), severityCounts(scan.severity_counts));
  }
  try {
    const score = await answer(client.GET('/api/scans/{id}/score', { params: { path: { id: scan.id } } }));
    done(
      h(
        'div',
        { class: 'score-head' },
        h('div', { class: `score-big ${gradeClass(score.grade)}` }, h('span', { class: 'score-n' }, String(score.overall_score)), h('span', { class: 'score-of' }, '/100')),
        h(
          'div',
          { class: `grade ${gradeClass(score.grade)}`, 'aria-label': `Grade ${gradeText(score.grade, score)}` },
          score.grade,
          // a partial grade never stands alone
          score.partial ? h('span', { class: 'partial-mark', id: 'partial-mark' }, typeof score.coverage === 'number' ? ` partial: ${Math.round(score.coverage * 100)}% of the plan ran` : ' partial scan') : null,
        ),
        severityCounts({ critical: score.critical_count, high: score.high_count, medium: score.medium_count, low: score.low_count }),
      ),
      score.partial || scan.status === 'completed_partial'
        ? notice('warn', `Partial scan: it stopped after ${typeof score.coverage === 'number' ? `${Math.round(score.coverage * 100)}%` : 'part'} of its plan${scan.reason ? ` (${scan.reason})` : ''}. The score and grade cover only what ran.`)
        : null,
      h('h3', null, 'By category'),
      Object.keys(score.category_scores ?? {}).length ? categoryBars(score.category_scores) : h('p', { class: 'hint' }, 'No category was probed.'),
      score.after_triage && score.after_triage.findings_triaged_away > 0
        ? h(
            'p',
            { class: 'after-triage', id: 'after-triage' },
            `As scanned ${score.overall_score} (${gradeText(score.grade, score)}); after triage ${score.after_triage.overall_score} (${score.after_triage.grade}), with ${score.after_triage.findings_triaged_away} finding${score.after_triage.findings_triaged_away === 1 ? '' : 's'} set aside. The recorded score does not change.`,
          )
        : h('p', { class: 'hint', id: 'after-triage' }, 'Nothing is triaged away: the score after triage is the same.'),
      score.scoring_version ? h('p', { class: 'hint' }, `Scoring version ${score.scoring_version}.`) : null,
    );
  } catch (err) {
    if (status(err) === 409) done(notice('info', 'The score is available when the scan has finished.'), severityCounts(scan.severity_counts));
    else done(notice('error', `The score could not be loaded: ${(err as Error).message}`), severityCounts(scan.severity_counts));
  }
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
function requestsLine(requests: Schemas['RequestsView']): string {
  const phases = Object.entries(requests.by_phase ?? {}).map(([phase, n]) => `${PHASE_LABEL[phase as ScanPhase] ?? phase} ${n}`);
  return `${requests.total} requests sent to the target${phases.length ? ` (${phases.join(', ')})` : ''}.`;
}

const TRIAGE_LABEL: Readonly<Record<TriageState, string>> = { open: 'Open', false_positive: 'False positive', accepted_risk: 'Accepted risk', fixed: 'Fixed' };
const bySeverity = (a: Finding, b: Finding) => severities.indexOf(a.severity) - severities.indexOf(b.severity);
const SORTS: Record<string, { label: string; cmp: (a: Finding, b: Finding) => number }> = {
  severity: { label: 'Severity', cmp: (a, b) => bySeverity(a, b) || a.found_at.localeCompare(b.found_at) },
  found: { label: 'Found first', cmp: (a, b) => a.found_at.localeCompare(b.found_at) },
  category: { label: 'Category', cmp: (a, b) => a.category.localeCompare(b.category) || bySeverity(a, b) },
  variants: { label: 'Most ways in', cmp: (a, b) => (b.variants?.length ?? 0) - (a.variants?.length ?? 0) },
  title: { label: 'Title', cmp: (a, b) => a.title.localeCompare(b.title) },
};
const triageState = (v: Finding): TriageState => v.triage?.state ?? 'open';

/**
 * A finished scan's findings: filters (severity, category, triage state, new since the last scan),
 * search, sort, each finding grouped with its variants, triage actions, and the diff.
 */
function findingsExplorer(ctx: PageContext, scan: Scan): HTMLDivElement {
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
    select('triage', 'Triage', [['', 'All'], ...Object.entries(TRIAGE_LABEL)]),
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
      .filter((v) => !q || [v.title, v.category, v.category_name, v.probe_id, v.technique, v.how, v.description, v.fingerprint, ...(v.evidence?.turns ?? []).map((t) => t.content)].some((x) => String(x ?? '').toLowerCase().includes(q)))
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
  const state = h('select', { name: 'state', 'aria-label': 'Triage state' }, Object.entries(TRIAGE_LABEL).map(([value, text]) => h('option', { value, selected: triageState(v) === value }, text)));
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

function findingsList(vulns: Finding[], { isNew = new Set<string>(), onTriage, scanId }: { isNew?: Set<string>; onTriage?: () => Promise<void>; scanId?: string } = {}): HTMLUListElement {
  return h(
    'ul',
    { class: 'findings' },
    vulns.map((v) =>
      h(
        'li',
        { class: 'finding', dataset: { findingId: v.id, triage: triageState(v) } },
        h(
          'details',
          null,
          h(
            'summary',
            null,
            severityBadge(v.severity),
            h('span', { class: 'finding-title' }, v.title),
            isNew.has(v.id) ? h('span', { class: 'badge badge-new' }, 'New') : null,
            v.triage && v.triage.state !== 'open' ? h('span', { class: `badge triage-${v.triage.state}` }, TRIAGE_LABEL[v.triage.state]) : null,
            v.variants?.length ? h('span', { class: 'badge badge-variants', title: 'other ways the same weakness got through' }, `+${v.variants.length}`) : null,
            h('span', { class: 'finding-cat mono' }, v.category),
            h('span', { class: 'finding-catname' }, v.category_name),
          ),
          h(
            'div',
            { class: 'finding-body' },
            v.triage
              ? h('p', { class: 'triage-line' }, `Triage: ${TRIAGE_LABEL[v.triage.state]}${v.triage.lapsed === 'expired' ? ' (the accepted risk expired)' : v.triage.lapsed === 'found_again' ? ' (marked fixed, found again)' : ''} by ${v.triage.by_name ?? v.triage.by}, ${new Date(v.triage.at).toLocaleString()}: ${v.triage.reason}${v.triage.expires_at ? ` (until ${new Date(v.triage.expires_at).toLocaleDateString()})` : ''}`)
              : null,
            onTriage && scanId ? triageForm(v, scanId, onTriage) : null,
            v.how ? h('p', { class: 'finding-how' }, h('strong', null, 'How it got through: '), v.how) : null,
            h('p', null, v.description),
            h(
              'dl',
              { class: 'dl dl-inline' },
              h('dt', null, 'Technique'), h('dd', null, v.technique ?? '—'),
              h('dt', null, 'Converters'), h('dd', null, v.converters?.length ? v.converters.join(', ') : 'none'),
              h('dt', null, 'Confidence'), h('dd', null, typeof v.confidence === 'number' ? `${Math.round(v.confidence * 100)}%` : '—'),
              h('dt', null, 'Detector'), h('dd', null, v.evidence?.detector ?? '—'),
              h('dt', null, 'Phase'), h('dd', null, v.phase ?? '—'),
              h('dt', null, 'Found'), h('dd', null, timeEl(v.found_at)),
            ),
            h('h4', null, 'Evidence'),
            h(
              'ol',
              { class: 'turns', 'aria-label': 'Conversation' },
              (v.evidence?.turns ?? []).map((t, i) => h('li', { class: `turn turn-${turnRoles.includes(t.role) ? t.role : 'other'}` }, h('span', { class: 'turn-role' }, t.role === 'user' ? 'Gauntlet (attacker)' : t.role === 'assistant' ? 'Target' : t.role), h('pre', { class: 'turn-content' }, withProof(t.content, v.evidence?.proof, i)))),
            ),
            v.evidence?.proof ? proofNote(v.evidence.proof) : v.evidence?.matched ? h('p', { class: 'matched' }, 'Matched: ', h('code', null, v.evidence.matched)) : null,
            v.variants?.length
              ? [
                  h('h4', null, `Also got through (${v.variants.length} other ${v.variants.length === 1 ? 'way' : 'ways'})`),
                  h('ul', { class: 'plain variants' }, v.variants.map((x) => h('li', null, x.how ?? [x.technique, ...(x.converters ?? [])].join(' + '), ' ', timeEl(x.found_at)))),
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

/** a turn's text with the proof's span marked, when the proof is in this turn as written */
function withProof(content: string, proof: Proof | undefined, index: number): Child {
  if (!proof || proof.turn !== index || proof.read_as || content.slice(proof.start, proof.end) !== proof.text) return content;
  return [content.slice(0, proof.start), h('mark', { class: 'proof-span' }, proof.text), content.slice(proof.end)];
}

const PROOF_MATCHED: Readonly<Record<ProofKind, (m: Partial<Schemas['ProofMatchView']>) => string>> = {
  canary: (m) => `the target's canary${m.label ? ` “${m.label}”` : ''}`,
  sensitive: (m) => `the sensitive value “${m.label}”`,
  recurrence: (m) => `a value that came back in ${m.occurrences ?? 2} independent conversations`,
  markup: () => 'markup the answer carried',
  invention: () => 'what the target made up',
  obedience: () => 'the instruction it obeyed',
};

/** what proves the finding, read in seconds: the quoted span and what it matched */
function proofNote(p: Proof): HTMLParagraphElement {
  const where = `turn ${p.turn + 1}${p.read_as ? (p.read_as === 'rendered page' ? ', as the page rendered it' : `, read as ${p.read_as}`) : ''}`;
  const matched = p.matched ?? {};
  return h('p', { class: 'matched proof' }, h('strong', null, 'Proof '), `(${where}): `, h('mark', { class: 'proof-span' }, p.text), `, ${(PROOF_MATCHED[matched.kind as ProofKind] ?? PROOF_MATCHED.obedience)(matched)}`);
}

const FRAMEWORK_LABEL: Readonly<Record<keyof Schemas['FrameworksView'], string>> = { owasp_llm_top10: 'OWASP Top 10 for LLM Applications', nist_ai_rmf: 'NIST AI RMF 1.0', soc2_cc7: 'SOC 2 CC7 System Operations' };
const CONTROL_STATUS: Readonly<Record<ControlStatus, string>> = { pass: 'Pass', fail: 'Fail', not_tested: 'Not tested' };
// a practice (GOVERN, MAP, MANAGE...) is evidenced by a scan, never passed by one
const controlLabel = (c: Control) => (c.basis === 'practice' ? 'Practice' : CONTROL_STATUS[c.status] ?? c.status);
const controlClass = (c: Control) => (c.basis === 'practice' ? 'ctl-practice' : `ctl-${c.status}`);

async function loadCompliance(ctx: PageContext, slot: Element, scan: Scan): Promise<void> {
  const heading = slot.querySelector('h2');
  const done = (...nodes: Child[]) => ctx.alive() && fill(slot, heading, ...nodes);
  if (scan.status === 'failed' || scan.status === 'cancelled') return void done(notice('info', 'Compliance evidence is produced for completed scans only.'));
  try {
    const ev = await answer(client.GET('/api/scans/{id}/compliance-evidence', { params: { path: { id: scan.id } } }));
    const frameworks = Object.entries(ev.frameworks ?? {}) as [keyof Schemas['FrameworksView'], { edition?: string; controls: Control[] }][];
    done(
      ...frameworks.map(([key, fw]) =>
        h(
          'div',
          { class: 'framework' },
          h('h3', null, FRAMEWORK_LABEL[key] ?? key, fw.edition ? ` (${fw.edition})` : ''),
          h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              { class: 'table table-compact' },
              h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Control'), h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Findings'), h('th', { scope: 'col' }, 'Probes run'))),
              h(
                'tbody',
                null,
                (fw.controls ?? []).map((c) =>
                  h('tr', null, h('th', { scope: 'row', class: 'mono' }, c.id), h('td', null, c.name), h('td', null, h('span', { class: `badge ${controlClass(c)}`, title: c.basis === 'practice' ? 'An organisational practice: this scan is evidence of it, not a pass.' : null }, controlLabel(c))), h('td', null, String(c.findings?.length ?? 0)), h('td', null, String(c.probes_run ?? 0))),
                ),
              ),
            ),
          ),
        ),
      ),
      ev.integrity ? h('p', { class: 'hint' }, `Integrity: ${ev.integrity.event_count} events, chain SHA-256 `, h('code', { class: 'wrap' }, ev.integrity.chain_sha256), '. Replay ', h('code', null, `GET /api/scans/${scan.id}/events`), ' to verify.') : null,
    );
  } catch (err) {
    if (status(err) === 409) done(notice('info', 'Compliance evidence is available when the scan has finished.'));
    else done(notice('error', `Compliance evidence could not be loaded: ${(err as Error).message}`));
  }
}

function reportsCard(ctx: PageContext, scan: Scan): HTMLElement {
  const plan = ctx.account?.plan ?? 'free';
  const allowed = (f: ReportFormat) => plan !== 'free' || f === 'json';
  const note = h('p', { class: 'hint', role: 'status' });
  const buttons = (Object.keys(REPORT_LABEL) as ReportFormat[]).map((f) => {
    const b = button(REPORT_LABEL[f], { class: 'btn btn-small', disabled: !allowed(f), 'aria-describedby': allowed(f) ? null : 'report-plan-note' });
    b.addEventListener('click', () => void download(scan, f, b, note));
    return b;
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'reports-title' },
    h('h2', { id: 'reports-title' }, 'Reports'),
    h('div', { class: 'report-buttons' }, buttons),
    plan === 'free' ? h('p', { class: 'hint', id: 'report-plan-note' }, 'The free plan downloads JSON. PDF, HTML, CSV and Markdown come with Pro.') : null,
    note,
  );
}

async function download(scan: Scan, format: ReportFormat, btn: HTMLButtonElement, note: HTMLElement): Promise<void> {
  const label = REPORT_LABEL[format];
  btn.disabled = true;
  note.textContent = `Preparing the ${label} report…`;
  try {
    const call = client.GET('/api/scans/{id}/report', { params: { path: { id: scan.id }, query: { format } }, parseAs: 'blob' });
    const blob = await answer(call);
    const { response } = await call;
    const name = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `gauntlet-${scan.id}.${format === 'markdown' ? 'md' : format}`;
    const url = URL.createObjectURL(blob);
    const a = h('a', { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    note.textContent = `${label} report downloaded (${name}).`;
  } catch (err) {
    note.textContent = status(err) === 403 ? `${label} reports are not part of your plan.` : status(err) === 409 ? 'Reports are available when the scan has finished.' : `The report could not be downloaded: ${(err as Error).message}`;
  } finally {
    btn.disabled = false;
  }
}
