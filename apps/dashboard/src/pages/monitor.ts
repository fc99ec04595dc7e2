import { all, answer, ApiError, client, pager, type Schemas } from '../api/client';
import type { Severity, WebhookFormat } from '../api/enums';
import type { PageContext } from '../page';
import { severities, severityBadge } from '../widgets/badges';
import { fill, h, type Child } from '../widgets/dom';
import { confirmDialog, emptyState, loading, notice, pageHeader, secretReveal } from '../widgets/feedback';
import { busy, button, clearErrors, field, formAlert, showErrors, type FormProblem } from '../widgets/forms';
import { timeEl } from '../widgets/format';
import { WEBHOOK_FORMAT_OPTIONS } from '../widgets/webhook-formats';

type Target = Schemas['TargetView'];

export async function page(ctx: PageContext): Promise<void> {
  ctx.main.append(pageHeader('Agent monitor', { sub: 'Your agent sends its live inputs, outputs and tool calls; Gauntlet’s detectors judge each one and raise alerts.' }));
  const targets = await all(async (cursor, limit) => {
    const page = await answer(client.GET('/api/targets', { params: { query: { limit, cursor } } }));
    return { items: page.targets, next: page.next_cursor };
  });
  if (!ctx.alive()) return;
  if (!targets.length) {
    ctx.main.append(emptyState('No targets to monitor', 'The monitor watches a target you registered. Add one first.', h('a', { class: 'btn btn-primary', href: '/app/targets/new' }, 'Add a target')));
    return;
  }
  const selected = targets.find((t) => t.id === ctx.params.id) ?? null;
  const picker = field({ label: 'Target', name: 'target', type: 'select', value: selected?.id ?? '', options: [{ value: '', label: 'Choose a target…' }, ...targets.map((t) => ({ value: t.id, label: t.name }))] });
  const select = picker.querySelector('select')!;
  select.addEventListener('change', () => ctx.navigate(select.value ? `/app/monitor/${select.value}` : '/app/monitor'));
  ctx.main.append(h('form', { class: 'filters', 'aria-label': 'Choose a target' }, picker));
  if (!selected) {
    if (ctx.params.id) ctx.main.append(notice('info', 'That target does not exist any more. Choose another one.'));
    else ctx.main.append(emptyState('Choose a target', 'Pick the target whose agent you monitor to see its alerts and alert webhook.'));
    return;
  }
  const hookCard = h('section', { class: 'card', 'aria-labelledby': 'alert-hook-title' }, h('h2', { id: 'alert-hook-title' }, 'Alert webhook'), loading());
  const alertsCard = h('section', { class: 'card', 'aria-labelledby': 'alerts-title' }, h('h2', { id: 'alerts-title' }, `Alerts for ${selected.name}`), loading('Loading alerts…'));
  ctx.main.append(h('div', { class: 'two-col' }, h('div', { class: 'col-main' }, alertsCard), h('aside', { class: 'col-side' }, hookCard)));
  await Promise.all([loadHook(ctx, hookCard, selected), loadAlerts(ctx, alertsCard, selected)]);
}

async function loadHook(ctx: PageContext, card: HTMLElement, target: Target): Promise<void> {
  const heading = card.querySelector('h2');
  const show = (...nodes: Child[]) => ctx.alive() && fill(card, heading, ...nodes);
  const path = { params: { path: { id: target.id } } };
  let hook: Schemas['AlertWebhookView'] | null = null;
  try {
    hook = await answer(client.GET('/api/agent-monitor/target/{id}/webhook', path));
  } catch (err) {
    // 404: no alert webhook is set for this target
    if (!(err instanceof ApiError && err.status === 404)) return void show(notice('error', (err as Error).message));
  }
  if (hook) {
    const del = button('Remove', {
      class: 'btn btn-small btn-danger-ghost',
      on: {
        click: async () => {
          if (!(await confirmDialog({ title: 'Remove the alert webhook?', text: 'Alerts are still recorded and listed here, but no longer sent.', confirm: 'Remove', danger: true }))) return;
          try {
            await answer(client.DELETE('/api/agent-monitor/target/{id}/webhook', path));
            ctx.toast('Alert webhook removed.');
            await loadHook(ctx, card, target);
          } catch (err) {
            ctx.toast((err as Error).message, 'error');
          }
        },
      },
    });
    return void show(h('dl', { class: 'dl' }, h('dt', null, 'URL'), h('dd', { class: 'url' }, hook.url), h('dt', null, 'Format'), h('dd', null, hook.format_type), h('dt', null, 'Minimum severity'), h('dd', null, hook.min_severity ?? 'low')), h('div', { class: 'actions' }, del));
  }
  const btn = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Set alert webhook');
  const reveal = h('div', { class: 'reveal-slot' });
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    formAlert(),
    h('p', { class: 'hint' }, 'No alert webhook is set: alerts are only listed here.'),
    field({ label: 'Endpoint URL', name: 'url', type: 'url', required: true, placeholder: 'https://alerts.example.com/gauntlet' }),
    field({ label: 'Format', name: 'format_type', type: 'select', value: 'json', options: WEBHOOK_FORMAT_OPTIONS }),
    field({ label: 'Minimum severity', name: 'min_severity', type: 'select', value: 'high', options: severities.map((s) => ({ value: s, label: s })) }),
    btn,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const d = new FormData(form);
    try {
      const body = { url: String(d.get('url')).trim(), format_type: d.get('format_type') as WebhookFormat, min_severity: d.get('min_severity') as Severity };
      const created = await busy(btn, () => answer(client.POST('/api/agent-monitor/target/{id}/webhook', { ...path, body })));
      ctx.toast('Alert webhook set.');
      await loadHook(ctx, card, target);
      if (created?.secret) card.append(secretReveal('Alert signing secret', created.secret, ctx.toast));
    } catch (err) {
      showErrors(form, err as FormProblem);
    }
  });
  show(form, reveal);
}

/** newest first, a page at a time: a busy agent raises more alerts than one screen holds */
async function loadAlerts(ctx: PageContext, card: HTMLElement, target: Target): Promise<void> {
  const heading = card.querySelector('h2');
  const show = (...nodes: Child[]) => ctx.alive() && fill(card, heading, ...nodes);
  const alerts = pager(async (cursor) => {
    const page = await answer(client.GET('/api/agent-monitor/target/{id}/alerts', { params: { path: { id: target.id }, query: { limit: 50, cursor } } }));
    return { items: page.alerts, next: page.next_cursor };
  });
  const more = button('Load older alerts', { class: 'btn' });
  const load = async () => {
    await alerts.more();
    if (!alerts.items.length) {
      return void show(emptyState('No alerts', `Nothing suspicious so far. Your agent posts its events to POST /api/agent-monitor/target/${target.id}/events with an API key; alerts appear here.`));
    }
    show(alertList(alerts.items), alerts.cursor ? h('p', { class: 'more' }, more) : null);
  };
  more.addEventListener('click', async () => {
    try {
      await busy(more, load);
    } catch (err) {
      ctx.toast((err as Error).message, 'error');
    }
  });
  try {
    await load();
  } catch (err) {
    show(notice('error', (err as Error).message));
  }
}

function alertList(alerts: Schemas['AlertView'][]): HTMLUListElement {
  return h('ul', { class: 'alerts' }, alerts.map((a) => h('li', { class: 'alert-item' },
    h('div', { class: 'alert-head' }, severityBadge(a.severity), h('strong', null, a.rule), h('span', { class: 'mono' }, a.detector), timeEl(a.occurred_at)),
    h('p', { class: 'hint' }, 'Session ', h('code', null, a.session_id), ` · ${a.kind}`),
    a.matched ? h('p', null, 'Matched: ', h('code', null, a.matched)) : null,
  )));
}
