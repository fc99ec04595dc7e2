// The scans table shared by the target page and the Scans page.
import type { Schemas } from '../api/client';
import { isTerminal, statusBadge } from './badges';
import { h } from './dom';
import { gradeClass, gradeText, timeEl } from './format';

export function scanTable(scans: Schemas['ScanSummaryView'][], { showTarget = true } = {}): HTMLDivElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'table' },
      h('caption', { class: 'visually-hidden' }, 'Scans'),
      h(
        'thead',
        null,
        h('tr', null, h('th', { scope: 'col' }, 'Started'), showTarget ? h('th', { scope: 'col' }, 'Target') : null, h('th', { scope: 'col' }, 'Profile'), h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Progress'), h('th', { scope: 'col' }, 'Findings'), h('th', { scope: 'col' }, 'Score')),
      ),
      h(
        'tbody',
        null,
        scans.map((s) =>
          h(
            'tr',
            { dataset: { scanId: s.id } },
            h('th', { scope: 'row' }, h('a', { href: `/app/scans/${s.id}` }, timeEl(s.created_at))),
            showTarget ? h('td', null, s.target_name) : null,
            h('td', null, s.profile),
            h('td', null, statusBadge(s.status), s.reason && (s.status === 'failed' || s.status === 'completed_partial' || s.status === 'cancelled') ? h('p', { class: 'reason-line', title: s.reason }, s.reason) : null),
            h('td', null, `${s.progress ?? 0}%${s.phase && !isTerminal(s.status) ? ` · ${s.phase}` : ''}`),
            h('td', null, String(s.findings_so_far ?? 0)),
            h('td', null, typeof s.security_score === 'number' ? h('span', { class: `grade-pill ${gradeClass(s.security_grade)}` }, `${s.security_score} · ${gradeText(s.security_grade, s)}`) : '—'),
          ),
        ),
      ),
    ),
  );
}
