import { api, all, isMissing, pager } from '../api.js';
import {
  h, fill, field, formAlert, showErrors, clearErrors, busy, button, emptyState, notice, pageHeader, loading, clear, confirmDialog, timeEl, secretReveal, severityBadge, SEVERITIES,
} from '../dom.js';
import { FORMAT_TYPES } from './webhooks.js';

const UNAVAILABLE = 'The Live Agent Monitor is not available on this server yet. Once it is, this page sets the alert webhook of each target and lists its alerts.';

export async function page(ctx) {
  ctx.main.append(pageHeader('Agent monitor', { sub: 'Your agent sends its live inputs, outputs and tool calls; Gauntlet’s detectors judge each one and raise alerts.' }));
  const targets = await all('/api/targets', 'targets');
  if (!ctx.alive()) return;
  if (!targets.length) {
    ctx.main.append(emptyState('No targets to monitor', 'The monitor watches a target you registered. Add one first.', h('a', { class: 'btn btn-primary', href: '/app/targets/new' }, 'Add a target')));
    return;
  }
  const selected = targets.find((t) => t.id === ctx.params.id) ?? null;
  const picker = field({ label: 'Target', name: 'target', type: 'select', value: selected?.id ?? '', options: [{ value: '', label: 'Choose a target…' }, ...targets.map((t) => ({ value: t.id, label: t.name }))] });
  picker.querySelector('select').addEventListener('change', (e) => ctx.navigate(e.target.value ? `/app/monitor/${e.target.value}` : '/app/monitor'));
  ctx.main.append(h('form', { class: 'filters', 'aria-label': 'Choose a target' }, picker));
  if (!selected) {
    if (ctx.params.id) ctx.main.append(notice('info', 'That target does not exist any more. Choose another one.'));
    else ctx.main.append(emptyState('Choose a target', 'Pick the target whose agent you monitor to see its alerts and alert webhook.'));
    return;
  }
  const hookCard = h('section', { class: 'card', 'aria-labelledby': 'alert-hook-title' }, h('h2', { id: 'alert-hook-title' }, 'Alert webhook'), loading());
  const alertsCard = h('section', { class: 'card', 'aria-labelledby': 'alerts-title' }, h('h2', { id: 'alerts-title' }, `Alerts for ${selected.name}`), loading('Loading alerts…'));
  ctx.main.append(h('div', { class: 'two-col' }, h('div', { class: 'col-main' }, alertsCard), h('aside', { class: 'col-side' }, hookCard)));
  const base = `/api/agent-monitor/target/${selected.id}`;
  await Promise.all([loadHook(ctx, hookCard, base), loadAlerts(ctx, alertsCard, base)]);
}

async function loadHook(ctx, card, base) {
  const heading = card.querySelector('h2');
  const show = (...nodes) => ctx.alive() && fill(card, heading, ...nodes);
  let hook = null;
  try {
    hook = await api.get(`${base}/webhook`);
  } catch (err) {
    // 404 is "no webhook set" once the feature exists; a missing route answers 404 too, so say both kindly
    if (!isMissing(err)) return show(notice('error', err.message));
  }
  if (hook) {
    const del = button('Remove', {
      class: 'btn btn-small btn-danger-ghost',
      on: {
        click: async () => {
          if (!(await confirmDialog({ title: 'Remove the alert webhook?', text: 'Alerts are still recorded and listed here, but no longer sent.', confirm: 'Remove', danger: true }))) return;
          try {
            await api.del(`${base}/webhook`);
            ctx.toast('Alert webhook removed.');
            await loadHook(ctx, card, base);
          } catch (err) {
            ctx.toast(err.message, 'error');
          }
        },
      },
    });
    return show(h('dl', { class: 'dl' }, h('dt', null, 'URL'), h('dd', { class: 'url' }, hook.url), h('dt', null, 'Format'), h('dd', null, hook.format_type), h('dt', null, 'Minimum severity'), h('dd', null, hook.min_severity ?? 'low')), h('div', { class: 'actions' }, del));
  }
  const btn = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Set alert webhook');
  const reveal = h('div', { class: 'reveal-slot' });
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    formAlert(),
    h('p', { class: 'hint' }, 'No alert webhook is set: alerts are only listed here.'),
    field({ label: 'Endpoint URL', name: 'url', type: 'url', required: true, placeholder: 'https://alerts.example.com/gauntlet' }),
    field({ label: 'Format', name: 'format_type', type: 'select', value: 'json', options: FORMAT_TYPES }),
    field({ label: 'Minimum severity', name: 'min_severity', type: 'select', value: 'high', options: [...SEVERITIES].map((s) => ({ value: s, label: s })) }),
    btn,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const d = new FormData(form);
    try {
      const created = await busy(btn, () => api.post(`${base}/webhook`, { url: String(d.get('url')).trim(), format_type: d.get('format_type'), min_severity: d.get('min_severity') }));
      ctx.toast('Alert webhook set.');
      await loadHook(ctx, card, base);
      if (created?.secret) card.append(secretReveal('Alert signing secret', created.secret, ctx.toast));
    } catch (err) {
      showErrors(form, isMissing(err) ? { message: UNAVAILABLE, errors: [] } : err);
    }
  });
  show(form, reveal);
}

/** newest first, a page at a time: a busy agent raises more alerts than one screen holds */
async function loadAlerts(ctx, card, base) {
  const heading = card.querySelector('h2');
  const show = (...nodes) => ctx.alive() && fill(card, heading, ...nodes);
  const alerts = pager(`${base}/alerts`, 'alerts', { limit: 50 });
  const more = button('Load older alerts', { class: 'btn' });
  const load = async () => {
    await alerts.more();
    if (!alerts.items.length) {
      return show(emptyState('No alerts', `Nothing suspicious so far. Your agent posts its events to POST ${base}/events with an API key; alerts appear here.`));
    }
    show(alertList(alerts.items), alerts.cursor ? h('p', { class: 'more' }, more) : null);
  };
  more.addEventListener('click', async () => {
    try {
      await busy(more, load);
    } catch (err) {
      ctx.toast(err.message, 'error');
    }
  });
  try {
    await load();
  } catch (err) {
    show(notice(isMissing(err) ? 'info' : 'error', isMissing(err) ? UNAVAILABLE : err.message));
  }
}

function alertList(alerts) {
  return h('ul', { class: 'alerts' }, alerts.map((a) => h('li', { class: 'alert-item' },
    h('div', { class: 'alert-head' }, severityBadge(a.severity), h('strong', null, a.rule), h('span', { class: 'mono' }, a.detector), timeEl(a.occurred_at)),
    h('p', { class: 'hint' }, 'Session ', h('code', null, a.session_id), ` · ${a.kind}`),
    a.matched ? h('p', null, 'Matched: ', h('code', null, a.matched)) : null,
  )));
}
