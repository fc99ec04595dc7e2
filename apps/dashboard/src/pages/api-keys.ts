import { answer, client, type Schemas } from '../api/client';
import type { PageContext } from '../page';
import { clear, h } from '../widgets/dom';
import { confirmDialog, emptyState, loading, notice, pageHeader, secretReveal } from '../widgets/feedback';
import { busy, button, clearErrors, control, field, formAlert, showErrors, type FormProblem } from '../widgets/forms';
import { timeEl } from '../widgets/format';

export async function page(ctx: PageContext): Promise<void> {
  ctx.main.append(pageHeader('API keys', { sub: 'Keys let CI pipelines and scripts call Gauntlet with the X-API-Key header (CI scans, webhooks, agent monitor).' }));
  const reveal = h('div', { class: 'reveal-slot' });
  const btn = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Create key');
  const form = h('form', { class: 'form inline-form', novalidate: true }, formAlert(), field({ label: 'Key name', name: 'name', required: true, placeholder: 'GitHub Actions', hint: 'Say where it will be used, so you know what to revoke later.' }), btn);
  const listEl = h('div', null, loading());
  ctx.main.append(h('section', { class: 'card', 'aria-labelledby': 'new-key-title' }, h('h2', { id: 'new-key-title' }, 'Create a key'), form, reveal), h('section', { class: 'card', 'aria-labelledby': 'keys-title' }, h('h2', { id: 'keys-title' }, 'Active keys'), listEl));

  const refresh = async () => {
    const { api_keys: keys } = await answer(client.GET('/api/api-keys'));
    if (!ctx.alive()) return;
    clear(listEl);
    if (!keys.length) {
      listEl.append(emptyState('No active keys', 'Create a key above and store it in your CI secrets as GAUNTLET_API_KEY.'));
      return;
    }
    listEl.append(
      h('div', { class: 'table-wrap' }, h(
        'table',
        { class: 'table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Key starts with'), h('th', { scope: 'col' }, 'Created'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')))),
        h('tbody', null, keys.map((k) => h('tr', { dataset: { keyId: k.id } }, h('th', { scope: 'row' }, k.name), h('td', null, h('code', null, `${k.prefix}…`)), h('td', null, timeEl(k.created_at)), h('td', { class: 'row-actions' }, revokeButton(ctx, k, refresh))))),
      )),
    );
  };

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    try {
      const created = await busy(btn, () => answer(client.POST('/api/api-keys', { body: { name: control(form, 'name').value.trim() } })));
      form.reset();
      clear(reveal).append(secretReveal('API key', created.key, ctx.toast, 'Store it now (for example in your CI secrets). Gauntlet keeps only a hash and cannot show it again.'));
      reveal.querySelector('button')?.focus();
      await refresh();
    } catch (err) {
      showErrors(form, err as FormProblem);
    }
  });
  await refresh().catch((err: Error) => clear(listEl).append(notice('error', err.message)));
}

function revokeButton(ctx: PageContext, k: Schemas['ApiKeyView'], refresh: () => Promise<void>): HTMLButtonElement {
  return button('Revoke', {
    class: 'btn btn-small btn-danger-ghost',
    'aria-label': `Revoke ${k.name}`,
    on: {
      click: async () => {
        if (!(await confirmDialog({ title: `Revoke “${k.name}”?`, text: 'Anything using this key stops working at once. This cannot be undone.', confirm: 'Revoke key', danger: true }))) return;
        try {
          await answer(client.DELETE('/api/api-keys/{id}', { params: { path: { id: k.id } } }));
          ctx.toast(`Key “${k.name}” revoked.`);
          await refresh();
        } catch (err) {
          ctx.toast((err as Error).message, 'error');
        }
      },
    },
  });
}
