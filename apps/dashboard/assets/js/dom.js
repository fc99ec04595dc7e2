// DOM building without innerHTML: every string becomes a text node, so whatever the API returns
// (findings quote attacker prompts and <script> tags) is shown as text and never parsed as markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function applyAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'on') {
      for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key === 'checked') {
      // also the default, so form.reset() comes back to it
      el.checked = el.defaultChecked = value;
    } else if (key === 'value' || key === 'selected' || key === 'hidden' || key === 'disabled') {
      el[key] = value;
    } else if (key === 'style') {
      throw new Error('inline styles are refused by the CSP; use a class or el.style');
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
}

/** h('p', {class: 'x'}, 'text', child): an element; attrs may hold `on: {click}` and `dataset` */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

export function clear(el) {
  el.replaceChildren();
  return el;
}

/** replaces the children of el, skipping null/false like h() does (native append would print "null") */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let uid = 0;
export const nextId = (prefix) => `${prefix}-${++uid}`;

/**
 * A labelled form control with its hint and an error slot tied by aria-describedby.
 * `name` is the API field path (e.g. "browser.input_selector") so server field errors land here.
 */
export function field({ label, name, type = 'text', value, required, hint, options, rows, placeholder, autocomplete, min, max, inputmode }) {
  const id = nextId('f');
  const hintId = hint ? `${id}-hint` : null;
  const errId = `${id}-err`;
  let control;
  const common = { id, name, required: required ? true : null, 'aria-describedby': [hintId, errId].filter(Boolean).join(' '), placeholder, autocomplete };
  if (type === 'select') {
    control = h('select', common, options.map((o) => h('option', { value: o.value, selected: String(o.value) === String(value ?? '') }, o.label)));
  } else if (type === 'textarea') {
    control = h('textarea', { ...common, rows: rows ?? 3 });
    control.value = value ?? '';
  } else {
    control = h('input', { ...common, type, min, max, inputmode });
    if (value !== undefined && value !== null) control.value = String(value);
  }
  return h(
    'div',
    { class: 'field', dataset: { field: name } },
    h('label', { for: id }, label, required ? h('span', { class: 'req', 'aria-hidden': 'true' }, ' *') : null),
    control,
    hint ? h('p', { class: 'hint', id: hintId }, hint) : null,
    h('p', { class: 'field-error', id: errId }),
  );
}

/** the summary box at the top of a form: role=alert so it is announced when it fills */
export const formAlert = () => h('div', { class: 'form-alert', role: 'alert', hidden: true });

export function clearErrors(form) {
  for (const f of form.querySelectorAll('.field')) {
    f.classList.remove('invalid');
    const control = f.querySelector('input,select,textarea');
    control?.removeAttribute('aria-invalid');
    const err = f.querySelector('.field-error');
    if (err) err.textContent = '';
  }
  const alert = form.querySelector('.form-alert');
  if (alert) {
    alert.hidden = true;
    clear(alert);
  }
}

/** problem+json errors next to their fields; those without a field go to the summary */
export function showErrors(form, err) {
  clearErrors(form);
  const unplaced = [];
  let first = null;
  for (const e of err.errors ?? []) {
    const f = findField(form, e.field);
    if (!f) {
      unplaced.push(e);
      continue;
    }
    f.classList.add('invalid');
    const control = f.querySelector('input,select,textarea');
    control?.setAttribute('aria-invalid', 'true');
    const slot = f.querySelector('.field-error');
    slot.textContent = slot.textContent ? `${slot.textContent} ${e.message}` : e.message;
    first ??= control;
  }
  const alert = form.querySelector('.form-alert');
  if (alert) {
    append(alert, [h('p', { class: 'form-alert-title' }, err.message), unplaced.length ? h('ul', null, unplaced.map((e) => h('li', null, e.field ? `${e.field}: ${e.message}` : e.message))) : null]);
    alert.hidden = false;
  }
  (first ?? alert)?.focus?.();
  if (!first && alert) {
    alert.setAttribute('tabindex', '-1');
    alert.focus();
  }
}

function findField(form, name) {
  if (!name) return null;
  // "canaries.0" and similar array paths belong to the field that edits the whole array
  const candidates = [name, name.replace(/\.\d+$/, ''), name.split('.')[0]];
  for (const c of candidates) {
    const f = form.querySelector(`.field[data-field="${CSS.escape(c)}"]`);
    if (f) return f;
  }
  return null;
}

export function button(label, attrs = {}) {
  return h('button', { type: 'button', class: 'btn', ...attrs }, label);
}

/** disables a submit button while the request runs, so a double click sends once */
export async function busy(btn, fn) {
  const was = btn.disabled;
  btn.disabled = true;
  btn.setAttribute('aria-busy', 'true');
  try {
    return await fn();
  } finally {
    btn.disabled = was;
    btn.removeAttribute('aria-busy');
  }
}

// ---------- formatting ----------

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export function fmtDate(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateFmt.format(d);
}

export function timeEl(iso) {
  return iso ? h('time', { datetime: iso }, fmtDate(iso)) : '—';
}

export const SEVERITIES = ['critical', 'high', 'medium', 'low'];

export function severityBadge(sev) {
  return h('span', { class: `badge sev-${SEVERITIES.includes(sev) ? sev : 'unknown'}` }, sev ?? 'unknown');
}

const STATUS_LABEL = { pending: 'Pending', running: 'Running', completed: 'Completed', completed_partial: 'Partial', failed: 'Failed', cancelled: 'Cancelled' };
export function statusBadge(status) {
  return h('span', { class: `badge status-${String(status).replace(/[^a-z_]/g, '')}` }, STATUS_LABEL[status] ?? String(status));
}

export function gradeClass(grade) {
  const g = String(grade ?? '').charAt(0);
  return { A: 'grade-a', B: 'grade-b', C: 'grade-c', D: 'grade-d', F: 'grade-f' }[g] ?? 'grade-none';
}

export const TERMINAL = ['completed', 'completed_partial', 'failed', 'cancelled'];
export const isTerminal = (status) => TERMINAL.includes(status);

/** a panel saying what is missing and what to do next */
export function emptyState(title, text, action) {
  return h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, title), text ? h('p', null, text) : null, action ?? null);
}

export function notice(kind, text, action) {
  return h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : null }, h('p', null, text), action ?? null);
}

/** copies text; falls back to selecting it when the clipboard API is refused */
export async function copy(text, target) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (target) {
      const range = document.createRange();
      range.selectNodeContents(target);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
    return false;
  }
}

/** a secret shown once, with a copy button and the warning that goes with it */
export function secretReveal(label, secret, toast, note = 'Store it now (for example in your CI secrets). Gauntlet cannot show it again.') {
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
export function confirmDialog({ title, text, confirm = 'Confirm', danger = false }) {
  return new Promise((resolve) => {
    const titleId = nextId('dlg');
    const ok = h('button', { type: 'button', class: `btn ${danger ? 'btn-danger' : 'btn-primary'}` }, confirm);
    const cancel = h('button', { type: 'button', class: 'btn' }, 'Cancel');
    const dlg = h('dialog', { class: 'dialog', 'aria-labelledby': titleId }, h('h2', { id: titleId }, title), h('p', null, text), h('div', { class: 'actions' }, cancel, ok));
    const done = (value) => {
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

/** the page title row: heading, optional subtitle and actions on the right */
export function pageHeader(title, { sub, actions, back } = {}) {
  return h(
    'div',
    { class: 'page-header' },
    h('div', null, back ? h('a', { class: 'back', href: back.href }, `← ${back.label}`) : null, h('h1', null, title), sub ? h('p', { class: 'sub' }, sub) : null),
    actions ? h('div', { class: 'actions' }, actions) : null,
  );
}

export function loading(text = 'Loading…') {
  return h('p', { class: 'loading', role: 'status' }, text);
}

/**
 * A URL as text that wraps only where a reader would: after a slash, a ?, a & or a #, never
 * mid-word unless one piece alone is wider than the line.
 */
export function urlText(url, tag = 'span') {
  const parts = String(url ?? '').split(/(?<=[/?&#])/);
  const nodes = [];
  parts.forEach((p, i) => {
    nodes.push(p);
    if (i < parts.length - 1) nodes.push(h('wbr'));
  });
  return h(tag, { class: 'url', title: String(url ?? '') }, ...nodes);
}

/** the grade as it must be shown: a partial scan's grade carries the mark and the share of the plan that ran */
export function gradeText(grade, { partial, coverage } = {}) {
  if (!partial) return grade;
  return typeof coverage === 'number' ? `${grade} (partial: ${Math.round(coverage * 100)}% of the plan ran)` : `${grade} (partial scan)`;
}
