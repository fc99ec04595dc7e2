import { answer, client, type Schemas } from '../api/client';
import type { WebhookEvent, WebhookFormat } from '../api/enums';
import type { PageContext } from '../page';
import { clear, h } from '../widgets/dom';
import { confirmDialog, emptyState, loading, notice, pageHeader, secretReveal } from '../widgets/feedback';
import { busy, button, checkboxGroup, clearErrors, field, formAlert, showErrors, type FormProblem } from '../widgets/forms';
import { timeEl } from '../widgets/format';
import { WEBHOOK_FORMAT_OPTIONS } from '../widgets/webhook-formats';

type Webhook = Schemas['WebhookView'];
type Delivery = Schemas['DeliveryView'];

const EVENT_LABEL: Readonly<Record<WebhookEvent, string>> = {
  'scan.started': 'scan.started: a scan begins',
  'scan.completed': 'scan.completed: a scan finishes',
  'scan.completed_partial': 'scan.completed_partial: finished with incomplete results',
  'scan.failed': 'scan.failed: a scan hits a fatal error',
  'vulnerability.critical': 'vulnerability.critical: a critical finding, as it is found',
  'scan.regressed': 'scan.regressed: a fixed weakness found again, or the score fell past the target\'s threshold',
};
const EVENT_TYPES = Object.entries(EVENT_LABEL).map(([id, label]) => ({ id, label }));

function webhookForm(onCreated: (created: Schemas['CreatedWebhookView']) => Promise<void>): HTMLFormElement {
  const btn = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Add webhook');
  const form = h(
    'form',
    { class: 'form', novalidate: true },
    formAlert(),
    field({ label: 'Endpoint URL', name: 'url', type: 'url', required: true, placeholder: 'https://hooks.example.com/gauntlet', hint: 'Receives a signed POST for each event. Redirects are not followed.' }),
    field({ label: 'Format', name: 'format_type', type: 'select', value: 'json', options: WEBHOOK_FORMAT_OPTIONS }),
    checkboxGroup('Events', 'event_types', EVENT_TYPES, ['scan.completed', 'scan.failed', 'vulnerability.critical']),
    h('div', { class: 'actions form-actions' }, btn),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    const data = new FormData(form);
    try {
      const body = { url: String(data.get('url')).trim(), format_type: data.get('format_type') as WebhookFormat, event_types: data.getAll('event_types') as WebhookEvent[] };
      const created = await busy(btn, () => answer(client.POST('/api/webhooks', { body })));
      form.reset();
      await onCreated(created);
    } catch (err) {
      showErrors(form, err as FormProblem);
    }
  });
  return form;
}

export async function list(ctx: PageContext): Promise<void> {
  ctx.main.append(pageHeader('Webhooks', { sub: 'Send signed scan events to your own endpoint or SIEM (JSON, OCSF, CEF, syslog).' }));
  const listEl = h('div', null, loading());
  const reveal = h('div', { class: 'reveal-slot' });
  const formCard = h('section', { class: 'card', 'aria-labelledby': 'new-hook-title' }, h('h2', { id: 'new-hook-title' }, 'Add a webhook'), reveal);
  ctx.main.append(h('div', { class: 'two-col' }, h('div', { class: 'col-main' }, h('section', { class: 'card', 'aria-labelledby': 'hooks-title' }, h('h2', { id: 'hooks-title' }, 'Endpoints'), listEl)), h('aside', { class: 'col-side' }, formCard)));

  const refresh = async () => {
    let hooks: Webhook[];
    try {
      hooks = (await answer(client.GET('/api/webhooks'))).webhooks;
    } catch (err) {
      if (!ctx.alive()) return;
      clear(listEl).append(notice('error', (err as Error).message));
      return;
    }
    if (!ctx.alive()) return;
    clear(listEl);
    if (!hooks.length) {
      listEl.append(emptyState('No webhooks yet', 'Add an endpoint with the form: Gauntlet then posts each scan event to it, signed with a secret you keep.'));
      return;
    }
    listEl.append(
      h('ul', { class: 'hook-list' }, hooks.map((w) => h('li', { class: 'hook', dataset: { webhookId: w.id } },
        h('div', { class: 'hook-main' }, h('a', { href: `/app/webhooks/${w.id}`, class: 'url' }, w.url), h('p', { class: 'hint' }, `${w.format_type} · ${(w.event_types ?? []).join(', ')}`, w.enabled === false ? ' · disabled' : '')),
        h('div', { class: 'row-actions' }, h('a', { class: 'btn btn-small', href: `/app/webhooks/${w.id}` }, 'Deliveries'), testButton(ctx, w), deleteButton(ctx, w, refresh)),
      ))),
    );
  };
  formCard.append(webhookForm(async (created) => {
    clear(reveal).append(secretReveal('Signing secret', created.secret, ctx.toast), h('p', { class: 'hint' }, 'Verify X-Service-Signature (sha256= HMAC of the raw body) or the Standard Webhooks headers with this secret.'));
    reveal.querySelector('button')?.focus();
    ctx.toast('Webhook added.');
    await refresh();
  }));
  await refresh();
}

/** the test ping is sent while the request waits, so the toast can tell the endpoint's answer */
function testButton(ctx: PageContext, w: Webhook, after: () => Promise<unknown> = async () => undefined): HTMLButtonElement {
  return button('Send test', {
    class: 'btn btn-small',
    'aria-label': `Send a test event to ${w.url}`,
    on: {
      click: async (e) => {
        try {
          const delivery = await busy(e.currentTarget as HTMLButtonElement, () => answer(client.POST('/api/webhooks/{id}/test', { params: { path: { id: w.id } } })));
          const attempt = delivery?.attempts?.at(-1);
          if (delivery?.status === 'succeeded') ctx.toast(`Test event delivered: the endpoint answered ${attempt?.status}.`);
          else ctx.toast(`Test event not delivered: ${attempt?.error ?? `the endpoint answered ${attempt?.status ?? 'nothing'}`}.`, 'error');
          await after();
        } catch (err) {
          ctx.toast((err as Error).message, 'error');
        }
      },
    },
  });
}

function deleteButton(ctx: PageContext, w: Webhook, after: () => unknown): HTMLButtonElement {
  return button('Delete', {
    class: 'btn btn-small btn-danger-ghost',
    'aria-label': `Delete webhook ${w.url}`,
    on: {
      click: async () => {
        if (!(await confirmDialog({ title: 'Delete this webhook?', text: `${w.url} will receive no more events.`, confirm: 'Delete webhook', danger: true }))) return;
        try {
          await answer(client.DELETE('/api/webhooks/{id}', { params: { path: { id: w.id } } }));
          ctx.toast('Webhook deleted.');
          await after();
        } catch (err) {
          ctx.toast((err as Error).message, 'error');
        }
      },
    },
  });
}

export async function detail(ctx: PageContext): Promise<void> {
  let w: Webhook;
  try {
    w = await answer(client.GET('/api/webhooks/{id}', { params: { path: { id: ctx.params.id } } }));
  } catch (err) {
    const missing = (err as { status?: number }).status === 404;
    ctx.main.append(pageHeader('Webhook', { back: { href: '/app/webhooks', label: 'Webhooks' } }), notice(missing ? 'info' : 'error', missing ? 'This webhook does not exist or was deleted.' : (err as Error).message, h('a', { href: '/app/webhooks' }, 'Back to webhooks')));
    return;
  }
  if (!ctx.alive()) return;
  const reveal = h('div', { class: 'reveal-slot' });
  const rotate = button('Rotate secret', {
    class: 'btn btn-small',
    on: {
      click: async (e) => {
        // the event's currentTarget is null once the handler has awaited anything
        const self = e.currentTarget as HTMLButtonElement;
        if (!(await confirmDialog({ title: 'Rotate the signing secret?', text: 'A new secret is issued and shown once. Update your receiver to accept it.', confirm: 'Rotate secret' }))) return;
        try {
          const r = await busy(self, () => answer(client.POST('/api/webhooks/{id}/rotate-secret', { params: { path: { id: w.id } } })));
          clear(reveal).append(secretReveal('New signing secret', r.secret, ctx.toast));
          reveal.querySelector('button')?.focus();
        } catch (err) {
          ctx.toast((err as Error).message, 'error');
        }
      },
    },
  });
  ctx.main.append(
    pageHeader('Webhook', { sub: w.url, back: { href: '/app/webhooks', label: 'Webhooks' }, actions: [testButton(ctx, w, () => refresh()), rotate, deleteButton(ctx, w, () => ctx.navigate('/app/webhooks'))] }),
    reveal,
    h('section', { class: 'card', 'aria-labelledby': 'hook-settings' }, h('h2', { id: 'hook-settings' }, 'Settings'), h('dl', { class: 'dl dl-inline' },
      h('dt', null, 'Format'), h('dd', null, w.format_type),
      h('dt', null, 'Events'), h('dd', null, (w.event_types ?? []).join(', ')),
      h('dt', null, 'State'), h('dd', null, w.enabled === false ? 'Disabled' : 'Enabled'),
      h('dt', null, 'Created'), h('dd', null, timeEl(w.created_at)),
    )),
  );
  const logEl = h('div', null, loading('Loading deliveries…'));
  const refreshBtn = button('Refresh', { class: 'btn btn-small' });
  ctx.main.append(h('section', { class: 'card', 'aria-labelledby': 'log-title' }, h('div', { class: 'card-head' }, h('h2', { id: 'log-title' }, 'Delivery log'), refreshBtn), logEl));
  const refresh = async () => {
    try {
      const { deliveries } = await answer(client.GET('/api/webhooks/{id}/deliveries', { params: { path: { id: w.id } } }));
      if (!ctx.alive()) return;
      clear(logEl).append(deliveries.length ? deliveryTable(ctx, w, deliveries, refresh) : emptyState('No deliveries yet', 'Send a test event, or run a scan: each event and every attempt to deliver it shows up here.'));
    } catch (err) {
      clear(logEl).append(notice('error', (err as Error).message));
    }
  };
  refreshBtn.addEventListener('click', refresh);
  await refresh();
}

function deliveryTable(ctx: PageContext, w: Webhook, deliveries: Delivery[], refresh: () => Promise<void>): HTMLUListElement {
  return h(
    'ul',
    { class: 'deliveries' },
    deliveries.map((d) => {
      const attempts = d.attempts ?? [];
      const redeliver = button('Redeliver', {
        class: 'btn btn-small',
        on: {
          click: async (e) => {
            try {
              await busy(e.currentTarget as HTMLButtonElement, () => answer(client.POST('/api/webhooks/{id}/deliveries/{delivery_id}/redeliver', { params: { path: { id: w.id, delivery_id: d.id } } })));
              ctx.toast('Redelivery queued.');
              await refresh();
            } catch (err) {
              ctx.toast((err as Error).message, 'error');
            }
          },
        },
      });
      return h(
        'li',
        { class: 'delivery', dataset: { deliveryId: d.id } },
        h('details', null,
          h('summary', null, h('span', { class: `badge dl-${String(d.status ?? '').replace(/[^a-z_]/g, '')}` }, d.status ?? 'unknown'), h('span', { class: 'mono' }, d.event ?? ''), h('span', { class: 'hint' }, `${attempts.length} attempt${attempts.length === 1 ? '' : 's'}`), timeEl(d.created_at)),
          h('div', { class: 'delivery-body' },
            h('p', { class: 'hint' }, 'Delivery id ', h('code', null, d.id), d.next_attempt_at ? [' · next attempt ', timeEl(d.next_attempt_at)] : null),
            attempts.length
              ? h('table', { class: 'table table-compact' },
                h('thead', null, h('tr', null, h('th', { scope: 'col' }, '#'), h('th', { scope: 'col' }, 'At'), h('th', { scope: 'col' }, 'Answer'), h('th', { scope: 'col' }, 'Time'), h('th', { scope: 'col' }, 'Error'))),
                h('tbody', null, attempts.map((a, i) => h('tr', null,
                  h('td', null, String(a.n ?? i + 1), a.manual ? ' (manual)' : ''),
                  h('td', null, timeEl(a.at)),
                  h('td', null, typeof a.status === 'number' ? String(a.status) : '—'),
                  h('td', null, typeof a.duration_ms === 'number' ? `${a.duration_ms} ms` : '—'),
                  h('td', null, a.error ?? ''),
                ))))
              : h('p', { class: 'hint' }, 'Not attempted yet.'),
            h('div', { class: 'actions' }, redeliver),
          ),
        ),
      );
    }),
  );
}
