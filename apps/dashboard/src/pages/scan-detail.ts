import { answer, client } from '../api/client';
import type { PageContext } from '../page';
import { isTerminal } from '../widgets/badges';
import { clear, h } from '../widgets/dom';
import { confirmDialog, emptyState, loading, notice, pageHeader } from '../widgets/feedback';
import { button } from '../widgets/forms';
import { loadCompliance } from './scan-detail/compliance';
import { reportsCard } from './scan-detail/downloads';
import { findingsExplorer, renderLive, requestsLine } from './scan-detail/findings';
import { pollProgress, progressCard } from './scan-detail/progress';
import { readScan, status, type Scan, type Status } from './scan-detail/scan';
import { loadScore } from './scan-detail/score';

// The scan page: the scan's header and cancel button, and its parts, each in scan-detail/ under
// the name of what it shows: progress (the card and its polling), findings (live, then the
// explorer, triage and each finding's conversation), score, compliance, downloads.

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

  if (!isTerminal(scan.status)) pollProgress(ctx, scan.id, apply, (message) => progress.error(message));
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
