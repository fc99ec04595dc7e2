// Form controls that receive the service's problem+json field errors next to the field they name.
import { clear, h, nextId, type Attrs, type Child } from './dom';

/** a problem to show on a form: a summary and, per field path, what is wrong */
export interface FormProblem {
  message: string;
  errors?: readonly { field?: string; message: string }[];
}

/** a problem found before anything is sent (a malformed line in a text box), shown like the server's */
export class InputProblem extends Error implements FormProblem {
  constructor(
    message: string,
    readonly errors: { field: string; message: string }[],
  ) {
    super(message);
  }
}

export interface Option {
  value: string;
  label: string;
}

export interface FieldSpec {
  label: string;
  /** the API field path (e.g. "browser.input_selector"), so server field errors land here */
  name: string;
  type?: string;
  value?: string | number | null;
  required?: boolean;
  hint?: string | null;
  options?: readonly Option[];
  rows?: number;
  placeholder?: string;
  autocomplete?: string;
  min?: number;
  max?: number;
  inputmode?: string;
}

/** A labelled form control with its hint and an error slot tied by aria-describedby. */
export function field({ label, name, type = 'text', value, required, hint, options, rows, placeholder, autocomplete, min, max, inputmode }: FieldSpec): HTMLDivElement {
  const id = nextId('f');
  const hintId = hint ? `${id}-hint` : null;
  const errId = `${id}-err`;
  let control: HTMLElement;
  const common = { id, name, required: required ? true : null, 'aria-describedby': [hintId, errId].filter(Boolean).join(' '), placeholder, autocomplete };
  if (type === 'select') {
    control = h('select', common, (options ?? []).map((o) => h('option', { value: o.value, selected: String(o.value) === String(value ?? '') }, o.label)));
  } else if (type === 'textarea') {
    const area = h('textarea', { ...common, rows: rows ?? 3 });
    area.value = value === null || value === undefined ? '' : String(value);
    control = area;
  } else {
    const input = h('input', { ...common, type, min, max, inputmode });
    if (value !== undefined && value !== null) input.value = String(value);
    control = input;
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

/** a checkbox group that receives the server's errors for `name` like any other field */
export function checkboxGroup(legend: string, name: string, items: readonly { id: string; label: string }[], checked: readonly string[] = []): HTMLFieldSetElement {
  const errId = nextId('err');
  return h(
    'fieldset',
    { class: 'field fieldset checks', dataset: { field: name }, 'aria-describedby': errId },
    h('legend', null, legend),
    items.map((it) => {
      const id = nextId('cb');
      return h('div', { class: 'check' }, h('input', { type: 'checkbox', id, name, value: it.id, checked: checked.includes(it.id) }), h('label', { for: id }, it.label));
    }),
    h('p', { class: 'field-error', id: errId }),
  );
}

/** the summary box at the top of a form: role=alert so it is announced when it fills */
export const formAlert = (): HTMLDivElement => h('div', { class: 'form-alert', role: 'alert', hidden: true });

/** a control of the form by name (the form is built here, so the name is known to exist) */
export function control<E extends Element = HTMLInputElement>(form: HTMLFormElement, name: string): E {
  return form.elements.namedItem(name) as unknown as E;
}

export function clearErrors(form: HTMLFormElement): void {
  for (const f of form.querySelectorAll('.field')) {
    f.classList.remove('invalid');
    f.querySelector('input,select,textarea')?.removeAttribute('aria-invalid');
    const err = f.querySelector('.field-error');
    if (err) err.textContent = '';
  }
  const alert = form.querySelector<HTMLElement>('.form-alert');
  if (alert) {
    alert.hidden = true;
    clear(alert);
  }
}

/** problem+json errors next to their fields; those without a field go to the summary */
export function showErrors(form: HTMLFormElement, err: FormProblem): void {
  clearErrors(form);
  const unplaced: { field?: string; message: string }[] = [];
  let first: HTMLElement | null = null;
  for (const e of err.errors ?? []) {
    const f = findField(form, e.field);
    if (!f) {
      unplaced.push(e);
      continue;
    }
    f.classList.add('invalid');
    const input = f.querySelector<HTMLElement>('input,select,textarea');
    input?.setAttribute('aria-invalid', 'true');
    const slot = f.querySelector('.field-error');
    if (slot) slot.textContent = slot.textContent ? `${slot.textContent} ${e.message}` : e.message;
    first ??= input;
  }
  const alert = form.querySelector<HTMLElement>('.form-alert');
  if (alert) {
    alert.append(h('p', { class: 'form-alert-title' }, err.message));
    if (unplaced.length) alert.append(h('ul', null, unplaced.map((e) => h('li', null, e.field ? `${e.field}: ${e.message}` : e.message))));
    alert.hidden = false;
  }
  (first ?? alert)?.focus?.();
  if (!first && alert) {
    alert.setAttribute('tabindex', '-1');
    alert.focus();
  }
}

function findField(form: HTMLFormElement, name: string | undefined): Element | null {
  if (!name) return null;
  // "canaries.0" and similar array paths belong to the field that edits the whole array
  const candidates = [name, name.replace(/\.\d+$/, ''), name.split('.')[0]];
  for (const c of candidates) {
    const f = form.querySelector(`.field[data-field="${CSS.escape(c)}"]`);
    if (f) return f;
  }
  return null;
}

export function button(label: Child, attrs: Attrs = {}): HTMLButtonElement {
  return h('button', { type: 'button', class: 'btn', ...attrs }, label);
}

/** disables a submit button while the request runs, so a double click sends once */
export async function busy<T>(btn: HTMLButtonElement, fn: () => Promise<T>): Promise<T> {
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
