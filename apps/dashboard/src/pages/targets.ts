import { all, answer, ApiError, client, type Schemas } from '../api/client';
import { apiFormatLabels, apiFormats, scanProfiles, type ScanMode, type ScanProfile } from '../api/enums';
import type { PageContext } from '../page';
import { clear, h } from '../widgets/dom';
import { confirmDialog, emptyState, loading, notice, pageHeader } from '../widgets/feedback';
import { busy, button, clearErrors, control, field, formAlert, InputProblem, showErrors, type FormProblem } from '../widgets/forms';
import { timeEl, urlText } from '../widgets/format';
import { scanTable } from '../widgets/scan-table';
import { trendChart } from '../widgets/trend';

type Target = Schemas['TargetView'];
type TargetCheck = Schemas['TargetCheckView'];
/** what the form sends: a registration, or (editing) the fields that changed */
type TargetBody = Schemas['UpdateTargetBody'] & { check?: boolean };

const MODE_LABEL: Readonly<Record<ScanMode, string>> = { browser: 'Web chatbot (browser)', api: 'Model API' };
const PROFILE_LABEL: Readonly<Record<ScanProfile, string>> = {
  quick: 'Quick: a few probes per category',
  standard: 'Standard: the full probe set',
  deep: 'Deep: every probe with amplification',
};

/** a check just run from the form, shown once by the target page it leads to */
let pendingCheck: { id: string; result: TargetCheck } | null = null;

const modeText = (t: Target) => (t.scan_mode === 'api' ? `API · ${(t.api_format && apiFormatLabels[t.api_format]) ?? t.api_format ?? '—'}` : 'Browser');

const allTargets = () => all(async (cursor, limit) => {
  const page = await answer(client.GET('/api/targets', { params: { query: { limit, cursor } } }));
  return { items: page.targets, next: page.next_cursor };
});

export async function list(ctx: PageContext): Promise<void> {
  const newBtn = h('a', { class: 'btn btn-primary', href: '/app/targets/new' }, 'New target');
  ctx.main.append(pageHeader('Targets', { sub: 'The chatbots and model APIs Gauntlet attacks.', actions: newBtn }));
  const body = h('div', null, loading());
  ctx.main.append(body);
  const targets = await allTargets();
  if (!ctx.alive()) return;
  clear(body);
  if (targets.length === 0) {
    body.append(
      emptyState(
        'No targets yet',
        'Add the web chatbot or model API you want to test. You can start a scan as soon as it is saved.',
        h('a', { class: 'btn btn-primary', href: '/app/targets/new' }, 'Add your first target'),
      ),
    );
    return;
  }
  body.append(
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'table' },
        h('caption', { class: 'visually-hidden' }, 'Targets'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Address'), h('th', { scope: 'col' }, 'Mode'), h('th', { scope: 'col' }, 'Created'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Actions')))),
        h(
          'tbody',
          null,
          targets.map((t) =>
            h(
              'tr',
              { dataset: { targetId: t.id } },
              h('th', { scope: 'row' }, h('a', { href: `/app/targets/${t.id}` }, t.name)),
              h('td', null, urlText(t.url)),
              h('td', null, modeText(t)),
              h('td', null, timeEl(t.created_at)),
              h('td', { class: 'row-actions' }, h('a', { class: 'btn btn-small', href: `/app/targets/${t.id}`, 'aria-label': `Scan ${t.name}` }, 'Scan'), h('a', { class: 'btn btn-small btn-ghost', href: `/app/targets/${t.id}/edit`, 'aria-label': `Edit ${t.name}` }, 'Edit')),
            ),
          ),
        ),
      ),
    ),
  );
}

// ---------- create / edit ----------

function targetForm(ctx: PageContext, target: Target | null): HTMLFormElement {
  const editing = Boolean(target);
  const t: Partial<Target> = target ?? {};
  const submit = h('button', { type: 'submit', class: 'btn btn-primary' }, editing ? 'Save changes' : 'Create target');
  // a check needs the target saved: this saves it, checks it, and the target page shows the result
  const testBtn = h('button', { type: 'button', class: 'btn' }, 'Save and test connection');
  const cancel = h('a', { class: 'btn', href: editing ? `/app/targets/${t.id}` : '/app/targets' }, 'Cancel');

  const mode = field({
    label: 'Scan mode', name: 'scan_mode', type: 'select', required: true, value: t.scan_mode ?? 'api',
    options: [{ value: 'api', label: MODE_LABEL.api }, { value: 'browser', label: MODE_LABEL.browser }],
    hint: 'A model API is called directly; a web chatbot is driven in a real browser.',
  });
  const format = field({
    label: 'API format', name: 'api_format', type: 'select', required: true, value: t.api_format ?? 'openai',
    options: apiFormats.map((value) => ({ value, label: apiFormatLabels[value] })),
  });
  const apiKey = field({
    label: 'Target API key', name: 'api_key', type: 'password', autocomplete: 'off',
    hint: editing ? (t.has_api_key ? 'A key is stored (never shown). Leave empty to keep it; type a new one to replace it.' : 'No key stored. Leave empty if the target needs none.') : 'The credential Gauntlet sends to the target. Stored encrypted, never shown again.',
  });
  const model = field({ label: 'Model', name: 'model', value: t.model, placeholder: 'e.g. gpt-4o-mini', hint: 'Model name sent to the target API (required for Ollama and Gemini; the deployment for Azure when the URL has none).' });
  const headers = field({
    label: 'Custom headers', name: 'headers', type: 'textarea', rows: 2, placeholder: 'Ocp-Apim-Subscription-Key: …',
    hint: (editing && t.header_names?.length ? `Stored: ${t.header_names.join(', ')} (values never shown). Leave empty to keep them; type new ones to replace them all. ` : '')
      + 'One “Name: value” per line, for a gateway in front of the API. Stored encrypted like the key.',
  });
  const stream = field({
    label: 'Streaming', name: 'stream', type: 'select', value: t.stream ? 'true' : 'false',
    options: [{ value: 'false', label: 'Whole answers' }, { value: 'true', label: 'Ask the API to stream' }], hint: 'Answers are read either way.',
  });

  const browserSet = h(
    'fieldset',
    { class: 'fieldset' },
    h('legend', null, 'Browser selectors (optional)'),
    h('p', { class: 'hint' }, 'Only needed when Gauntlet cannot find the chat box by itself. CSS selectors.'),
    field({ label: 'Input selector', name: 'browser.input_selector', value: t.browser?.input_selector, placeholder: 'textarea#message' }),
    field({ label: 'Send button selector', name: 'browser.send_selector', value: t.browser?.send_selector, placeholder: 'button[type=submit]', hint: 'Enter is pressed when empty.' }),
    field({ label: 'Response selector', name: 'browser.response_selector', value: t.browser?.response_selector, placeholder: '.message.bot' }),
  );
  const httpSet = h(
    'fieldset',
    { class: 'fieldset' },
    h('legend', null, 'Custom HTTP request'),
    field({ label: 'Body template', name: 'http.body_template', type: 'textarea', rows: 4, value: t.http?.body_template, required: true, placeholder: '{"input": {{prompt}}}', hint: 'JSON body; {{prompt}} or {{messages}} are replaced by the attack.' }),
    field({ label: 'Response path', name: 'http.response_path', value: t.http?.response_path, required: true, placeholder: 'output.text', hint: 'Dot path to the answer in the response JSON.' }),
  );

  const form = h(
    'form',
    { class: 'form form-wide', novalidate: true },
    formAlert(),
    h(
      'div',
      { class: 'grid-2' },
      field({ label: 'Name', name: 'name', required: true, value: t.name, placeholder: 'Support chatbot' }),
      field({ label: 'URL', name: 'url', type: 'url', required: true, value: t.url, placeholder: 'https://api.example.com/v1', hint: 'The chat page (browser), or the API: the base URL your SDK takes (https://host/v1) or the full endpoint.' }),
      mode,
      format,
      apiKey,
      model,
      headers,
      stream,
      field({ label: 'Max requests per second', name: 'max_requests_per_second', type: 'number', min: 1, max: 100, inputmode: 'numeric', value: t.max_requests_per_second, hint: '1 to 100. Leave empty for the default.' }),
      field({ label: 'Canaries', name: 'canaries', type: 'textarea', rows: 3, value: (t.canaries ?? []).join('\n'), hint: 'One per line: strings planted in the system prompt or data that must never appear in an answer (4 to 200 characters).' }),
      field({ label: 'Tags', name: 'tags', value: (t.tags ?? []).join(', '), placeholder: 'prod, team:support', hint: 'Comma-separated: the fleet view filters on them and a schedule can scan every target of a tag.' }),
      field({ label: 'Regression threshold (points)', name: 'regression_threshold', type: 'number', min: 1, max: 100, inputmode: 'numeric', value: t.regression_threshold, hint: 'A scan whose score falls by more than this since the previous one raises scan.regressed. Empty: only weaknesses found again after being marked fixed do.' }),
      field({
        label: 'Sensitive values', name: 'sensitive', type: 'textarea', rows: 3, value: '',
        placeholder: editingSensitive(t),
        hint: 'One per line, “label: value”: what is behind the bot (a customer record, an internal code, the system prompt). Stored encrypted and never shown again; found in answers whole or in part. Leave empty to keep the ones stored.',
      }),
    ),
    browserSet,
    httpSet,
    h('div', { class: 'actions form-actions' }, submit, testBtn, cancel),
  );

  const modeSel = mode.querySelector('select')!;
  const formatSel = format.querySelector('select')!;
  const sync = () => {
    const isApi = modeSel.value === 'api';
    format.hidden = !isApi;
    apiKey.hidden = !isApi;
    model.hidden = !isApi;
    headers.hidden = !isApi;
    stream.hidden = !isApi;
    browserSet.hidden = isApi;
    httpSet.hidden = !(isApi && formatSel.value === 'http');
  };
  modeSel.addEventListener('change', sync);
  formatSel.addEventListener('change', sync);
  sync();

  const save = async (btn: HTMLButtonElement, check: boolean) => {
    clearErrors(form);
    let body: TargetBody;
    try {
      body = collect(form, t, editing);
    } catch (err) {
      return showErrors(form, err as FormProblem);
    }
    try {
      const saved: Target & { check?: TargetCheck } = await busy(btn, async () => {
        if (!target) return answer(client.POST('/api/targets', { body: check ? { ...body, check: true } : body }));
        const id = { params: { path: { id: target.id } } };
        const patched = Object.keys(body).length ? await answer(client.PATCH('/api/targets/{id}', { ...id, body })) : target;
        return check ? { ...patched, check: await answer(client.POST('/api/targets/{id}/check', id)) } : patched;
      });
      if (saved.check) pendingCheck = { id: saved.id, result: saved.check };
      ctx.toast(editing ? `Target “${saved.name}” saved.` : `Target “${saved.name}” created.`);
      ctx.navigate(`/app/targets/${saved.id}`);
    } catch (err) {
      showErrors(form, err as FormProblem);
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void save(submit, false);
  });
  testBtn.addEventListener('click', () => void save(testBtn, true));
  return form;
}

/** the request body from the form: what the contract takes, nothing empty, only changes when editing */
function collect(form: HTMLFormElement, before: Partial<Target>, editing: boolean): TargetBody {
  const raw = (name: string) => control<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>(form, name)?.value ?? '';
  const v = (name: string) => raw(name).trim();
  const isApi = v('scan_mode') === 'api';
  const body: TargetBody = { name: v('name'), url: v('url'), scan_mode: v('scan_mode') as ScanMode };
  if (isApi) {
    body.api_format = v('api_format') as TargetBody['api_format'];
    if (v('api_key')) body.api_key = raw('api_key');
    if (v('model')) body.model = v('model');
    else if (editing && before.model) body.model = null;
    if (body.api_format === 'http') body.http = { body_template: raw('http.body_template'), response_path: v('http.response_path') };
    const lines = raw('headers').split('\n').map((l) => l.trim()).filter(Boolean);
    if (lines.length) body.headers = parseHeaders(lines);
    body.stream = v('stream') === 'true';
  } else {
    const sel = { input_selector: v('browser.input_selector'), send_selector: v('browser.send_selector'), response_selector: v('browser.response_selector') };
    const filled = Object.fromEntries(Object.entries(sel).filter(([, x]) => x));
    if (Object.keys(filled).length) body.browser = filled;
  }
  const rps = v('max_requests_per_second');
  if (rps) body.max_requests_per_second = Number(rps);
  else if (editing && before.max_requests_per_second != null) body.max_requests_per_second = null;
  const canaries = raw('canaries').split('\n').map((c) => c.trim()).filter(Boolean);
  if (canaries.length || (editing && before.canaries?.length)) body.canaries = canaries;
  // write-only: sent only when typed, so an edit that leaves the box empty keeps the stored values
  const sensitive = raw('sensitive').split('\n').map((l) => l.trim()).filter(Boolean);
  if (sensitive.length) body.sensitive = parseSensitive(sensitive);
  const tags = v('tags').split(',').map((x) => x.trim()).filter(Boolean);
  if (tags.length || (editing && before.tags?.length)) body.tags = tags;
  const threshold = v('regression_threshold');
  if (threshold) body.regression_threshold = Number(threshold);
  else if (editing && before.regression_threshold != null) body.regression_threshold = null;
  if (!editing) return body;
  // PATCH sends what changed; the server ignores equal values anyway, this keeps the log honest
  const was = before as Record<string, unknown>;
  return Object.fromEntries(Object.entries(body).filter(([k, val]) => k === 'api_key' || k === 'headers' || k === 'sensitive' || JSON.stringify(val) !== JSON.stringify(was[k] ?? (k === 'stream' ? false : undefined))));
}

/** what the sensitive box shows when values are stored: their labels, never the values */
function editingSensitive(t: Partial<Target>): string {
  return t.sensitive?.length ? `Stored: ${t.sensitive.map((x) => x.label).join(', ')}` : 'customer IBAN: DE44 5001 0517 5407 3249 31';
}

/** “label: value” lines as sensitive values; a line without a colon is a field error */
function parseSensitive(lines: string[]): { label: string; value: string }[] {
  return lines.map((line) => {
    const at = line.indexOf(':');
    if (at <= 0) throw new InputProblem('Each sensitive value is “label: value”.', [{ field: 'sensitive', message: `a line has no “label: value”` }]);
    return { label: line.slice(0, at).trim(), value: line.slice(at + 1).trim() };
  });
}

/** “Name: value” lines as the headers object; a line without a colon is a field error */
function parseHeaders(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at <= 0) throw new InputProblem('Each header line is “Name: value”.', [{ field: 'headers', message: `“${line.slice(0, 40)}” has no “Name: value”` }]);
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export function create(ctx: PageContext): void {
  ctx.main.append(pageHeader('New target', { sub: 'What should Gauntlet attack?', back: { href: '/app/targets', label: 'Targets' } }), targetForm(ctx, null));
}

export async function edit(ctx: PageContext): Promise<void> {
  const target = await answer(client.GET('/api/targets/{id}', { params: { path: { id: ctx.params.id } } }));
  if (!ctx.alive()) return;
  ctx.main.append(pageHeader(`Edit ${target.name}`, { back: { href: `/app/targets/${target.id}`, label: target.name } }), targetForm(ctx, target));
}

// ---------- detail: settings, start a scan, history ----------

export async function detail(ctx: PageContext): Promise<void> {
  let target: Target;
  try {
    target = await answer(client.GET('/api/targets/{id}', { params: { path: { id: ctx.params.id } } }));
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
      ctx.main.append(pageHeader('Target not found', { back: { href: '/app/targets', label: 'Targets' } }), notice('info', 'This target does not exist or was deleted. Its past scans are still listed under Scans.', h('a', { href: '/app/scans' }, 'See all scans')));
      return;
    }
    throw err;
  }
  if (!ctx.alive()) return;
  const del = button('Delete', {
    class: 'btn btn-danger-ghost',
    on: {
      click: async () => {
        const ok = await confirmDialog({ title: `Delete ${target.name}?`, text: 'The target is removed; its past scans and reports stay available under Scans.', confirm: 'Delete target', danger: true });
        if (!ok) return;
        try {
          await answer(client.DELETE('/api/targets/{id}', { params: { path: { id: target.id } } }));
          ctx.toast(`Target “${target.name}” deleted.`);
          ctx.navigate('/app/targets');
        } catch (err) {
          ctx.toast((err as Error).message, 'error');
        }
      },
    },
  });
  ctx.main.append(
    pageHeader(target.name, { sub: target.url, back: { href: '/app/targets', label: 'Targets' }, actions: [h('a', { class: 'btn', href: `/app/targets/${target.id}/edit` }, 'Edit'), h('a', { class: 'btn', href: `/app/monitor/${target.id}` }, 'Agent monitor'), del] }),
  );

  const layout = h('div', { class: 'two-col' });
  ctx.main.append(layout);
  layout.append(h('div', { class: 'col-main' }, startScanCard(ctx, target), connectionCard(ctx, target), historyCard(ctx, target)), h('aside', { class: 'col-side' }, settingsCard(target)));
}

function startScanCard(ctx: PageContext, target: Target): HTMLElement {
  const profile = field({
    label: 'Profile', name: 'profile', type: 'select', value: 'standard',
    options: scanProfiles.map((value) => ({ value, label: PROFILE_LABEL[value] })),
  });
  const btn = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Start scan');
  const form = h('form', { class: 'form inline-form', novalidate: true }, formAlert(), profile, btn);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    try {
      const body = { target_id: target.id, profile: control<HTMLSelectElement>(form, 'profile').value as ScanProfile };
      const scan = await busy(btn, () => answer(client.POST('/api/scans', { body })));
      // without plan_only the answer is the scan started (201), never a plan
      if (!('id' in scan)) throw new Error('The service answered a plan instead of starting the scan.');
      ctx.toast('Scan started.');
      ctx.navigate(`/app/scans/${scan.id}`);
    } catch (err) {
      showErrors(form, err as FormProblem);
    }
  });
  return h('section', { class: 'card', 'aria-labelledby': 'start-title' }, h('h2', { id: 'start-title' }, 'Start a scan'), form);
}

/** “Test connection”: one harmless message, and what to change when it fails */
function connectionCard(ctx: PageContext, target: Target): HTMLElement {
  const result = h('div', { class: 'conn-result', role: 'status', 'aria-live': 'polite' });
  const btn: HTMLButtonElement = button('Test connection', {
    class: 'btn',
    on: {
      click: async () => {
        clear(result).append(loading(target.scan_mode === 'browser' ? 'Opening the chat page…' : 'Sending one message…'));
        try {
          const check = await busy(btn, () => answer(client.POST('/api/targets/{id}/check', { params: { path: { id: target.id } } })));
          if (ctx.alive()) clear(result).append(checkView(check));
        } catch (err) {
          clear(result).append(notice('error', (err as Error).message));
        }
      },
    },
  });
  if (pendingCheck?.id === target.id) {
    result.append(checkView(pendingCheck.result));
    pendingCheck = null;
  }
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'connection-title' },
    h('div', { class: 'card-head' }, h('h2', { id: 'connection-title' }, 'Connection'), btn),
    h('p', { class: 'hint' }, target.scan_mode === 'browser' ? 'Opens the page, finds the chat input, sends one message and reads the answer.' : 'Sends one harmless message to the endpoint below, as a scan would.'),
    result,
  );
}

/** a check's result: what happened, what to change, what was called, and the page when there is one */
function checkView(c: TargetCheck): HTMLDivElement {
  const facts = [`${c.latency_ms} ms`, c.status === null ? null : `HTTP ${c.status}`].filter(Boolean).join(' · ');
  return h(
    'div',
    { class: `conn-check ${c.ok ? 'conn-ok' : 'conn-failed'}` },
    h('p', { class: 'conn-verdict' }, h('span', { class: `badge ${c.ok ? 'status-completed' : 'status-failed'}` }, c.ok ? 'Connected' : 'Not connected'), ' ', c.diagnosis),
    c.hint ? h('p', { class: 'conn-hint' }, h('strong', null, 'What to change: '), c.hint) : null,
    h('p', { class: 'hint' }, 'Called ', urlText(c.endpoint, 'code'), facts ? ` (${facts})` : ''),
    c.answer ? h('blockquote', { class: 'conn-answer' }, c.answer) : null,
    c.screenshot ? h('img', { class: 'conn-shot', src: `data:${c.screenshot.content_type};base64,${c.screenshot.data}`, alt: 'The chat page as the check found it' }) : null,
  );
}

function settingsCard(t: Target): HTMLElement {
  const row = (k: string, v: Parameters<typeof h>[2]) => [h('dt', null, k), h('dd', null, v === null || v === undefined || v === '' ? '—' : v)];
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'settings-title' },
    h('h2', { id: 'settings-title' }, 'Settings'),
    h(
      'dl',
      { class: 'dl' },
      row('Mode', modeText(t)),
      row('URL', urlText(t.url)),
      t.scan_mode === 'api' && t.endpoint && t.endpoint !== t.url ? row('Endpoint called', urlText(t.endpoint)) : null,
      t.scan_mode === 'api' ? row('API key', t.has_api_key ? 'Stored (encrypted)' : 'None') : null,
      t.scan_mode === 'api' ? row('Model', t.model) : null,
      t.scan_mode === 'api' && t.header_names?.length ? row('Custom headers', `${t.header_names.join(', ')} (values encrypted)`) : null,
      t.scan_mode === 'api' && t.stream ? row('Streaming', 'Asked for') : null,
      row('Rate limit', t.max_requests_per_second ? `${t.max_requests_per_second} req/s` : 'Default'),
      row('Canaries', t.canaries?.length ? h('ul', { class: 'plain' }, t.canaries.map((c) => h('li', { class: 'mono' }, c))) : 'None'),
      row('Sensitive values', t.sensitive?.length ? h('ul', { class: 'plain' }, t.sensitive.map((x) => h('li', null, `${x.label} `, h('span', { class: 'mono muted' }, x.fingerprint)))) : 'None'),
      t.browser ? row('Selectors', h('ul', { class: 'plain' }, Object.entries(t.browser).filter(([, v]) => v).map(([k, v]) => h('li', null, `${k.replace('_selector', '')}: `, h('code', null, v))))) : null,
      t.http ? row('HTTP body', h('code', { class: 'block' }, t.http.body_template)) : null,
      t.http ? row('Response path', h('code', null, t.http.response_path)) : null,
      row('Tags', t.tags?.length ? t.tags.map((tag) => h('span', { class: 'tag' }, tag)) : 'None'),
      row('Regression threshold', t.regression_threshold ? `${t.regression_threshold} points` : 'Found-again weaknesses only'),
      row('Created', timeEl(t.created_at)),
    ),
  );
}

function historyCard(ctx: PageContext, target: Target): HTMLElement {
  const body = h('div', null, loading('Loading scan history…'));
  const card = h('section', { class: 'card', 'aria-labelledby': 'history-title' }, h('h2', { id: 'history-title' }, 'Scan history'), body);
  void (async () => {
    try {
      const scans = await all(async (cursor, limit) => {
        const page = await answer(client.GET('/api/scans', { params: { query: { target_id: target.id, limit, cursor } } }));
        return { items: page.scans, next: page.next_cursor };
      }, 5);
      if (!ctx.alive()) return;
      clear(body);
      if (!scans.length) {
        body.append(emptyState('No scans yet', 'Start a scan above: its score will be charted here after it finishes.'));
        return;
      }
      const { points } = await answer(client.GET('/api/fleet/{target_id}/trend', { params: { path: { target_id: target.id } } }));
      if (!ctx.alive()) return;
      if (points.length) body.append(trendChart(points));
      else body.append(h('p', { class: 'hint' }, 'The score chart appears once a scan has finished.'));
      body.append(scanTable(scans, { showTarget: false }));
    } catch (err) {
      clear(body).append(notice('error', (err as Error).message));
    }
  })();
  return card;
}

