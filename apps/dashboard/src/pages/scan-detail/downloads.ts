import { answer, client } from '../../api/client';
import { reportFormatLabels, reportFormats, type ReportFormat } from '../../api/enums';
import type { PageContext } from '../../page';
import { h } from '../../widgets/dom';
import { button } from '../../widgets/forms';
import { status, type Scan } from './scan';

/** what the free plan downloads (the service refuses the others with a problem saying so) */
const FREE: ReportFormat = 'json';

/** The reports card: a download per format, those outside the plan disabled with the reason beside them. */
export function reportsCard(ctx: PageContext, scan: Scan): HTMLElement {
  const plan = ctx.account?.plan ?? 'free';
  const allowed = (f: ReportFormat) => plan !== 'free' || f === FREE;
  const note = h('p', { class: 'hint', role: 'status' });
  // the formats and their labels as the API document has them, from the service's report registry
  const buttons = reportFormats.map((f) => {
    const b = button(reportFormatLabels[f], { class: 'btn btn-small', disabled: !allowed(f), 'aria-describedby': allowed(f) ? null : 'report-plan-note' });
    b.addEventListener('click', () => void download(scan, f, b, note));
    return b;
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'reports-title' },
    h('h2', { id: 'reports-title' }, 'Reports'),
    h('div', { class: 'report-buttons' }, buttons),
    plan === 'free' ? h('p', { class: 'hint', id: 'report-plan-note' }, `The free plan downloads ${reportFormatLabels[FREE]}. ${listed(reportFormats.filter((f) => f !== FREE).map((f) => reportFormatLabels[f]))} come with Pro.`) : null,
    note,
  );
}

async function download(scan: Scan, format: ReportFormat, btn: HTMLButtonElement, note: HTMLElement): Promise<void> {
  const label = reportFormatLabels[format];
  btn.disabled = true;
  note.textContent = `Preparing the ${label} report…`;
  try {
    const call = client.GET('/api/scans/{id}/report', { params: { path: { id: scan.id }, query: { format } }, parseAs: 'blob' });
    const blob = await answer(call);
    const { response } = await call;
    const name = /filename="?([^";]+)"?/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `gauntlet-${scan.id}.${format === 'markdown' ? 'md' : format}`;
    const url = URL.createObjectURL(blob);
    const a = h('a', { href: url, download: name, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    note.textContent = `${label} report downloaded (${name}).`;
  } catch (err) {
    note.textContent = status(err) === 403 ? `${label} reports are not part of your plan.` : status(err) === 409 ? 'Reports are available when the scan has finished.' : `The report could not be downloaded: ${(err as Error).message}`;
  } finally {
    btn.disabled = false;
  }
}

/** 'A, B and C' */
const listed = (names: string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);
