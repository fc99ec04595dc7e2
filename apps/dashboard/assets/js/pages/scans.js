import { api, pager, qs } from '../api.js';
import { h, field, emptyState, notice, pageHeader, loading, clear, isTerminal } from '../dom.js';
import { scanTable } from './targets.js';

const STATUSES = ['pending', 'running', 'completed', 'completed_partial', 'failed', 'cancelled'];

export async function list(ctx) {
  ctx.main.append(pageHeader('Scans', { sub: 'Every scan of your targets, newest first.' }));
  const status = field({ label: 'Status', name: 'status', type: 'select', value: ctx.query.get('status') ?? '', options: [{ value: '', label: 'Any status' }, ...STATUSES.map((s) => ({ value: s, label: s.replace('_', ' ') }))] });
  const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter scans' }, status);
  status.querySelector('select').addEventListener('change', (e) => ctx.navigate(`/app/scans${qs({ status: e.target.value })}`));
  const body = h('div', null, loading());
  ctx.main.append(filters, body);

  const scans = pager('/api/scans', 'scans', { status: ctx.query.get('status'), limit: 25 });
  const rows = scans.items;
  const more = h('button', { type: 'button', class: 'btn' }, 'Load more');
  const load = async () => {
    await scans.more();
    if (!ctx.alive()) return;
    clear(body);
    if (!rows.length) {
      body.append(
        ctx.query.get('status')
          ? emptyState('No scans with this status', 'Choose another status above.')
          : emptyState('No scans yet', 'Open a target and start a scan; it will be listed here with its progress.', h('a', { class: 'btn btn-primary', href: '/app/targets' }, 'Go to targets')),
      );
      return;
    }
    body.append(scanTable(rows));
    if (scans.cursor) body.append(h('p', { class: 'more' }, more));
  };
  more.addEventListener('click', () => load().catch((err) => body.append(notice('error', err.message))));
  await load();

  // running scans move on their own: refresh the visible page while any is unfinished
  const timer = setInterval(async () => {
    if (!rows.some((s) => !isTerminal(s.status)) || document.hidden) return;
    try {
      const fresh = await api.get(`/api/scans${qs({ status: ctx.query.get('status'), limit: Math.max(25, rows.length) })}`);
      if (!ctx.alive()) return;
      rows.splice(0, rows.length, ...fresh.scans);
      scans.cursor = fresh.next_cursor;
      clear(body).append(scanTable(rows));
      if (scans.cursor) body.append(h('p', { class: 'more' }, more));
    } catch {
      /* the next tick tries again */
    }
  }, 3000);
  ctx.onLeave(() => clearInterval(timer));
}
