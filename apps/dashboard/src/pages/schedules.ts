// Schedules: when targets (one, or all of a tag) are scanned, on a cron or after each deploy; create, pause, resume, delete.
import { all, answer, client, type Schemas } from '../api/client';
import { scanProfiles, type CatchUp, type ScheduleTrigger } from '../api/enums';
import type { PageContext } from '../page';
import { fill, h } from '../widgets/dom';
import { confirmDialog, emptyState, loading, pageHeader } from '../widgets/feedback';
import { busy, button, clearErrors, control, field, formAlert, showErrors, type FormProblem, type Option } from '../widgets/forms';
import { timeEl } from '../widgets/format';

type Schedule = Schemas['ScheduleView'];
type Target = Schemas['TargetView'];

const TRIGGER_LABEL: Readonly<Record<ScheduleTrigger, string>> = { cron: 'On a cron time table', deploy: 'After each deploy (your pipeline reports it)' };
const CATCH_UP_LABEL: Readonly<Record<CatchUp, string>> = { skip: 'Skip the runs missed', run_once: 'Run once for them' };
const options = (labels: Readonly<Record<string, string>>): Option[] => Object.entries(labels).map(([value, label]) => ({ value, label }));

// the browser's own zone and UTC first (Chromium's list leaves UTC out), then every IANA zone it knows
const HERE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const ZONES = (() => {
  let known: string[] = [];
  try {
    known = Intl.supportedValuesOf('timeZone');
  } catch {
    known = [];
  }
  return [...new Set([HERE, 'UTC', ...known])];
})();

const allSchedules = () => all(async (cursor, limit) => {
  const page = await answer(client.GET('/api/schedules', { params: { query: { limit, cursor } } }));
  return { items: page.schedules, next: page.next_cursor };
});
const allTargets = () => all(async (cursor, limit) => {
  const page = await answer(client.GET('/api/targets', { params: { query: { limit, cursor } } }));
  return { items: page.targets, next: page.next_cursor };
});

export async function page(ctx: PageContext): Promise<void> {
  ctx.main.append(pageHeader('Schedules', { sub: 'Scans that start on their own: on a cron time table in your time zone, or after each deploy your pipeline reports.', back: { href: '/app/fleet', label: 'Fleet' } }));
  const status = loading();
  ctx.main.append(status);
  const [schedules, targets] = await Promise.all([allSchedules(), allTargets()]);
  if (!ctx.alive()) return;
  status.remove();
  const names = new Map(targets.map((t) => [t.id, t.name]));
  const list = h('div', { class: 'table-wrap' });
  ctx.main.append(createCard(ctx, targets, () => reload()), h('section', { class: 'card', 'aria-labelledby': 'sched-list' }, h('h2', { id: 'sched-list' }, 'Your schedules'), list));

  const render = (items: Schedule[]) => {
    if (!items.length) return fill(list, emptyState('No schedules yet', 'Create one above: a target, or every target with a tag, scanned at the times you choose.'));
    fill(list, h('table', { class: 'table schedules-table' },
      h('thead', null, h('tr', null, ['Scans', 'When', 'Profile', 'Next run', 'Last firing', ''].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', null, items.map((s) => h('tr', { dataset: { schedule: s.id } },
        h('th', { scope: 'row' }, s.target_id ? h('a', { href: `/app/targets/${s.target_id}` }, names.get(s.target_id) ?? s.target_id) : h('span', null, 'tag ', h('span', { class: 'tag' }, s.tag))),
        s.trigger === 'deploy'
          ? h('td', null, 'After each deploy', h('br'), h('span', { class: 'sub' }, 'reported by gauntlet deploy or POST /api/ci/deploy'))
          : h('td', null, h('code', null, s.cron), ` ${s.timezone}`, h('br'), h('span', { class: 'sub' }, `after downtime: ${s.catch_up === 'skip' ? 'skip missed runs' : 'run once'}`)),
        h('td', null, s.profile),
        h('td', null, s.paused ? h('span', { class: 'badge status-cancelled' }, 'Paused') : s.trigger === 'deploy' ? 'Next deploy' : timeEl(s.next_run_at)),
        h('td', null, s.last_firing ? h('span', null, timeEl(s.last_firing.due_at), s.last_firing.deploy ? ` · deploy ${s.last_firing.deploy.deploy_id}` : '', ` · ${s.last_firing.scans.length} started`, s.last_firing.skipped.length ? `, ${s.last_firing.skipped.length} skipped (still scanning)` : '') : '—'),
        h('td', { class: 'row-actions' },
          button(s.paused ? 'Resume' : 'Pause', { class: 'btn btn-ghost', on: { click: (e) => toggle(e.currentTarget as HTMLButtonElement, s) } }),
          button('Delete', { class: 'btn btn-danger-ghost', on: { click: () => remove(s) } }),
        ),
      ))),
    ));
  };
  const reload = async () => render(await allSchedules());
  const toggle = async (btn: HTMLButtonElement, s: Schedule) => {
    try {
      await busy(btn, () => answer(client.PATCH('/api/schedules/{id}', { params: { path: { id: s.id } }, body: { paused: !s.paused } })));
      ctx.toast(s.paused ? 'Schedule resumed.' : 'Schedule paused.');
      await reload();
    } catch (err) {
      ctx.toast((err as Error).message, 'error');
    }
  };
  const remove = async (s: Schedule) => {
    if (!(await confirmDialog({ title: 'Delete this schedule?', text: 'No more scans start from it. Its past firings stay in the audit log.', confirm: 'Delete schedule', danger: true }))) return;
    try {
      await answer(client.DELETE('/api/schedules/{id}', { params: { path: { id: s.id } } }));
      ctx.toast('Schedule deleted.');
      await reload();
    } catch (err) {
      ctx.toast((err as Error).message, 'error');
    }
  };
  render(schedules);
}

function createCard(ctx: PageContext, targets: Target[], onCreated: () => Promise<unknown>): HTMLElement {
  const tags = [...new Set(targets.flatMap((t) => t.tags ?? []))].sort();
  const what = field({
    label: 'What to scan', name: 'what', type: 'select', required: true,
    options: [...targets.map((t) => ({ value: `target:${t.id}`, label: t.name })), ...tags.map((t) => ({ value: `tag:${t}`, label: `every target tagged ${t}` }))],
  });
  const trigger = field({
    label: 'Fires', name: 'trigger', type: 'select', value: 'cron',
    options: options(TRIGGER_LABEL),
    hint: 'A pipeline reports a deploy with gauntlet deploy --target ID, or POST /api/ci/deploy with an API key.',
  });
  const cron = field({ label: 'When (cron)', name: 'cron', value: '0 3 * * *', required: true, hint: 'minute hour day-of-month month day-of-week: 0 3 * * 1-5 is 03:00 on weekdays' });
  const zone = field({ label: 'Time zone', name: 'timezone', type: 'select', value: HERE, options: ZONES.map((z) => ({ value: z, label: z })) });
  const profile = field({ label: 'Profile', name: 'profile', type: 'select', value: 'standard', options: scanProfiles.map((p) => ({ value: p, label: p })) });
  const catchUp = field({ label: 'After downtime', name: 'catch_up', type: 'select', value: 'skip', options: options(CATCH_UP_LABEL) });
  const btn = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Create schedule');
  const form = h('form', { class: 'form', novalidate: true }, formAlert(), what, trigger, cron, zone, profile, catchUp, btn);
  const v = (n: string) => control<HTMLInputElement | HTMLSelectElement>(form, n).value;
  // a deploy schedule has no time table: its fields are hidden, not sent
  const timeTable = [cron, zone, catchUp];
  const showTrigger = () => {
    const onDeploy = v('trigger') === 'deploy';
    for (const f of timeTable) f.hidden = onDeploy;
    control(form, 'cron').required = !onDeploy;
  };
  control(form, 'trigger').addEventListener('change', showTrigger);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const [kind, ref] = v('what').split(/:(.*)/s);
    const when = v('trigger') === 'deploy' ? { trigger: 'deploy' as const } : { cron: v('cron'), timezone: v('timezone'), catch_up: v('catch_up') as CatchUp };
    try {
      await busy(btn, () => answer(client.POST('/api/schedules', { body: { ...(kind === 'target' ? { target_id: ref } : { tag: ref }), ...when, profile: v('profile') as Schedule['profile'] } })));
      ctx.toast('Schedule created.');
      await onCreated();
    } catch (err) {
      showErrors(form, err as FormProblem);
    }
  });
  return h('section', { class: 'card', 'aria-labelledby': 'sched-new' }, h('h2', { id: 'sched-new' }, 'New schedule'), targets.length ? form : emptyState('No targets yet', 'Add a target first.', h('a', { class: 'btn', href: '/app/targets/new' }, 'Add target')));
}
