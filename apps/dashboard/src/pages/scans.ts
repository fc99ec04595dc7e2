import { answer, client, pager } from '../api/client';
import { scanStatuses, type ScanStatus } from '../api/enums';
import type { PageContext } from '../page';
import { isTerminal } from '../widgets/badges';
import { clear, h } from '../widgets/dom';
import { emptyState, loading, notice, pageHeader } from '../widgets/feedback';
import { field } from '../widgets/forms';
import { scanTable } from '../widgets/scan-table';

export async function list(ctx: PageContext): Promise<void> {
  ctx.main.append(pageHeader('Scans', { sub: 'Every scan of your targets, newest first.' }));
  const wanted = (ctx.query.get('status') || undefined) as ScanStatus | undefined;
  const status = field({ label: 'Status', name: 'status', type: 'select', value: ctx.query.get('status') ?? '', options: [{ value: '', label: 'Any status' }, ...scanStatuses.map((s) => ({ value: s, label: s.replace('_', ' ') }))] });
  const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter scans' }, status);
  const select = status.querySelector('select')!;
  select.addEventListener('change', () => ctx.navigate(select.value ? `/app/scans?${new URLSearchParams({ status: select.value })}` : '/app/scans'));
  const body = h('div', null, loading());
  ctx.main.append(filters, body);

  const read = (limit: number, cursor?: string) => answer(client.GET('/api/scans', { params: { query: { status: wanted, limit, cursor } } }));
  const scans = pager(async (cursor) => {
    const page = await read(25, cursor);
    return { items: page.scans, next: page.next_cursor };
  });
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
  more.addEventListener('click', () => load().catch((err: Error) => body.append(notice('error', err.message))));
  await load();

  // running scans move on their own: refresh the visible page while any is unfinished
  const timer = setInterval(async () => {
    if (!rows.some((s) => !isTerminal(s.status)) || document.hidden) return;
    try {
      const fresh = await read(Math.max(25, rows.length));
      if (!ctx.alive()) return;
      rows.splice(0, rows.length, ...fresh.scans);
      scans.cursor = fresh.next_cursor ?? null;
      clear(body).append(scanTable(rows));
      if (scans.cursor) body.append(h('p', { class: 'more' }, more));
    } catch {
      /* the next tick tries again */
    }
  }, 3000);
  ctx.onLeave(() => clearInterval(timer));
}
