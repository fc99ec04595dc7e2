// Home: every target with its last grade, the change since the scan before, open findings after
// triage, regressions and the next scheduled run; sortable (buttons in the column headers, with
// aria-sort) and filterable (tag, name), both kept in the address so a view can be shared.
import { answer, client, type Schemas } from '../api/client';
import type { PageContext } from '../page';
import { severities } from '../widgets/badges';
import { fill, h } from '../widgets/dom';
import { emptyState, loading, pageHeader } from '../widgets/feedback';
import { gradeClass, timeEl } from '../widgets/format';

type FleetTarget = Schemas['FleetTargetView'];
type Counts = Schemas['SeverityCountsView'];

const openTotal = (o: Counts | undefined) => severities.reduce((n, s) => n + (o?.[s] ?? 0), 0);
/** severity-weighted, so 1 critical sorts above 3 lows */
const openWeight = (o: Counts) => (o.critical * 1e6) + (o.high * 1e4) + (o.medium * 1e2) + o.low;

const COLUMNS: { key: string; label: string; value: (t: FleetTarget) => string | number }[] = [
  { key: 'name', label: 'Target', value: (t) => t.name.toLowerCase() },
  { key: 'grade', label: 'Last grade', value: (t) => t.last_scan?.score ?? -1 },
  { key: 'change', label: 'Change', value: (t) => t.change ?? 0 },
  { key: 'open', label: 'Open findings', value: (t) => openWeight(t.open_findings) },
  { key: 'next', label: 'Next run', value: (t) => t.next_run_at ?? '9999' },
];

export async function page(ctx: PageContext): Promise<void> {
  const params = ctx.query;
  const state = { sort: params.get('sort') ?? 'open', dir: params.get('dir') === 'asc' ? 'asc' : 'desc', tag: params.get('tag') ?? '', q: params.get('q') ?? '' };
  ctx.main.append(pageHeader('Fleet', { sub: 'Every target, where it stands and when it is scanned next.', actions: [h('a', { class: 'btn', href: '/app/schedules' }, 'Schedules'), h('a', { class: 'btn btn-primary', href: '/app/targets/new' }, 'Add target')] }));
  const status = loading('Loading the fleet…');
  ctx.main.append(status);
  const fleet = await answer(client.GET('/api/fleet'));
  if (!ctx.alive()) return;
  status.remove();
  const targets = fleet.targets;
  if (!targets.length) {
    ctx.main.append(emptyState('No targets yet', 'Register a chatbot or model API, scan it, and it shows here with its grade and trend.', h('a', { class: 'btn btn-primary', href: '/app/targets/new' }, 'Add your first target')));
    return;
  }
  const tags = [...new Set(targets.flatMap((t) => t.tags))].sort();
  const tagSelect = h('select', { id: 'fleet-tag', name: 'tag' }, h('option', { value: '' }, 'All tags'), tags.map((t) => h('option', { value: t, selected: t === state.tag || null }, t)));
  const search = h('input', { id: 'fleet-q', name: 'q', type: 'search', value: state.q, placeholder: 'Name contains…', autocomplete: 'off' });
  const count = h('p', { class: 'sub', role: 'status', 'aria-live': 'polite' });
  const table = h('table', { class: 'table fleet-table' });
  ctx.main.append(
    h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter the fleet', on: { submit: (e) => e.preventDefault() } },
      h('label', { for: 'fleet-tag' }, 'Tag '), tagSelect, ' ', h('label', { for: 'fleet-q' }, 'Name '), search),
    count,
    h('div', { class: 'table-wrap' }, table),
  );

  const render = () => {
    const shown = targets
      .filter((t) => !state.tag || t.tags.includes(state.tag))
      .filter((t) => !state.q || t.name.toLowerCase().includes(state.q.toLowerCase()));
    const col = COLUMNS.find((c) => c.key === state.sort) ?? COLUMNS[3];
    shown.sort((a, b) => {
      const [x, y] = [col.value(a), col.value(b)];
      const c = x < y ? -1 : x > y ? 1 : a.name.localeCompare(b.name);
      return state.dir === 'asc' ? c : -c;
    });
    count.textContent = `${shown.length} of ${targets.length} target${targets.length === 1 ? '' : 's'}`;
    const header = h('tr', null, COLUMNS.map((c) => {
      const sorted = c.key === state.sort;
      const btn = h('button', { type: 'button', class: 'sort', on: { click: () => setSort(c.key) } }, c.label, h('span', { 'aria-hidden': 'true' }, sorted ? (state.dir === 'asc' ? ' ▲' : ' ▼') : ''));
      return h('th', { scope: 'col', 'aria-sort': sorted ? (state.dir === 'asc' ? 'ascending' : 'descending') : 'none' }, btn);
    }), h('th', { scope: 'col' }, 'Tags'));
    fill(table, h('caption', { class: 'visually-hidden' }, 'Targets: sort with the column header buttons'), h('thead', null, header), h('tbody', null, shown.map(row)));
    const url = new URL(location.href);
    for (const [k, v] of Object.entries({ sort: state.sort, dir: state.dir, tag: state.tag, q: state.q })) {
      if (v) url.searchParams.set(k, v);
      else url.searchParams.delete(k);
    }
    history.replaceState(null, '', url.pathname + url.search);
  };
  const setSort = (key: string) => {
    state.dir = state.sort === key && state.dir === 'desc' ? 'asc' : 'desc';
    state.sort = key;
    render();
    table.querySelector<HTMLElement>(`th[aria-sort]:not([aria-sort="none"]) button`)?.focus();
  };
  tagSelect.addEventListener('change', () => ((state.tag = tagSelect.value), render()));
  search.addEventListener('input', () => ((state.q = search.value.trim()), render()));
  render();
}

function row(t: FleetTarget): HTMLTableRowElement {
  const last = t.last_scan;
  // the newest scan failed: said so, with why, beside the last grade when there is one
  const failure = t.last_failure
    ? h('span', null, ' ', h('a', { class: 'badge status-failed', href: `/app/scans/${t.last_failure.scan_id}`, title: t.last_failure.reason ?? 'the scan failed' }, 'Failed'),
      h('span', { class: 'failure-reason' }, ` ${t.last_failure.reason ?? ''}`))
    : null;
  const grade = last
    ? h('span', null, h('span', { class: `grade ${gradeClass(last.grade)}` }, last.grade), ` ${last.score}`, last.partial ? h('span', { class: 'badge status-completed_partial' }, 'partial') : null, failure)
    : failure && !t.scanning
      ? failure
      : h('span', { class: 'muted' }, t.scanning ? 'Scanning…' : 'Not scanned');
  const change = t.change === null ? h('span', { class: 'muted' }, '—') : h('span', { class: t.change < 0 ? 'change-down' : t.change > 0 ? 'change-up' : 'muted' }, t.change > 0 ? `+${t.change}` : String(t.change), h('span', { class: 'visually-hidden' }, ` points since the scan before (${t.previous_score})`));
  const open = h('span', { class: 'open-counts' }, severities.map((s) => h('span', { class: `badge sev-${s}`, title: s }, `${t.open_findings[s]}`, h('span', { class: 'visually-hidden' }, ` ${s}`))));
  const regressed = t.regressions.length
    ? h('span', { class: 'badge badge-regressed', title: t.regressions.map((r) => (r.reason === 'found_again' ? 'a weakness triaged fixed was found again' : `score fell from ${r.previous_score} to ${r.score}`)).join('; ') }, 'Regressed')
    : null;
  return h('tr', { dataset: { target: t.target_id } },
    h('th', { scope: 'row' }, h('a', { href: `/app/targets/${t.target_id}` }, t.name), ' ', regressed),
    h('td', null, grade),
    h('td', null, change),
    h('td', null, open, h('span', { class: 'visually-hidden' }, `, ${openTotal(t.open_findings)} in all`)),
    h('td', null, t.next_run_at ? timeEl(t.next_run_at) : h('span', { class: 'muted' }, 'Not scheduled')),
    h('td', null, t.tags.length ? t.tags.map((tag) => h('span', { class: 'tag' }, tag)) : h('span', { class: 'muted' }, '—')),
  );
}
