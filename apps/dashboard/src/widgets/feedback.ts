// Page furniture: headers, empty states, notices, loading lines, confirmations and secrets shown once.
import { button } from './forms';
import { h, nextId, type Child } from './dom';

/** a panel saying what is missing and what to do next */
export function emptyState(title: string, text?: string | null, action?: Child): HTMLDivElement {
  return h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, title), text ? h('p', null, text) : null, action ?? null);
}

export function notice(kind: 'info' | 'warn' | 'error', text: string, action?: Child): HTMLDivElement {
  return h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : null }, h('p', null, text), action ?? null);
}

export function loading(text = 'Loading…'): HTMLParagraphElement {
  return h('p', { class: 'loading', role: 'status' }, text);
}

/** the page title row: heading, optional subtitle and actions on the right */
export function pageHeader(title: string, { sub, actions, back }: { sub?: string; actions?: Child; back?: { href: string; label: string } } = {}): HTMLDivElement {
  return h(
    'div',
    { class: 'page-header' },
    h('div', null, back ? h('a', { class: 'back', href: back.href }, `← ${back.label}`) : null, h('h1', null, title), sub ? h('p', { class: 'sub' }, sub) : null),
    actions ? h('div', { class: 'actions' }, actions) : null,
  );
}

/** copies text; falls back to selecting it when the clipboard API is refused */
export async function copy(text: string, target?: Node): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (target) {
      const range = document.createRange();
      range.selectNodeContents(target);
      const sel = window.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(range);
    }
    return false;
  }
}

export type Toast = (text: string, kind?: 'info' | 'error') => void;

/** a secret shown once, with a copy button and the warning that goes with it */
export function secretReveal(label: string, secret: string, toast: Toast, note = 'Store it now (for example in your CI secrets). Gauntlet cannot show it again.'): HTMLDivElement {
  const code = h('code', { class: 'secret-value' }, secret);
  const btn = button('Copy', {
    class: 'btn btn-small',
    'aria-label': `Copy ${label}`,
    on: {
      click: async () => {
        const ok = await copy(secret, code);
        toast(ok ? `${label} copied to the clipboard.` : `Copy was refused by the browser: the ${label.toLowerCase()} is selected, press Ctrl+C.`);
      },
    },
  });
  return h(
    'div',
    { class: 'secret', role: 'group', 'aria-label': label },
    h('p', { class: 'secret-title' }, `${label}: shown only once`),
    h('div', { class: 'secret-row' }, code, btn),
    h('p', { class: 'hint' }, note),
  );
}

/** a modal confirmation (native <dialog>: focus is trapped and Escape cancels); resolves true on confirm */
export function confirmDialog({ title, text, confirm = 'Confirm', danger = false }: { title: string; text: string; confirm?: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    const titleId = nextId('dlg');
    const ok = h('button', { type: 'button', class: `btn ${danger ? 'btn-danger' : 'btn-primary'}` }, confirm);
    const cancel = h('button', { type: 'button', class: 'btn' }, 'Cancel');
    const dlg = h('dialog', { class: 'dialog', 'aria-labelledby': titleId }, h('h2', { id: titleId }, title), h('p', null, text), h('div', { class: 'actions' }, cancel, ok));
    const done = (value: boolean) => {
      dlg.close();
      dlg.remove();
      resolve(value);
    };
    ok.addEventListener('click', () => done(true));
    cancel.addEventListener('click', () => done(false));
    dlg.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(false);
    });
    document.body.append(dlg);
    dlg.showModal();
    cancel.focus();
  });
}
