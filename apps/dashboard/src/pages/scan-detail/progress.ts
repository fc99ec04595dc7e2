import { answer, ApiError, client } from '../../api/client';
import { scanPhases } from '../../api/enums';
import type { PageContext } from '../../page';
import { isTerminal, statusBadge } from '../../widgets/badges';
import { clear, h } from '../../widgets/dom';
import { PHASE_LABEL, type Status } from './scan';

// every 2 s: a tab polling a running scan spends 30 of the 120 requests a minute the api allows
// one IP (api-spec.md section 8), and leaves room for the rest of the dashboard and other tabs
const POLL_MS = 2000;

/**
 * Polls a running scan's status until it ends or the page is left, handing each status to
 * `apply`; over the rate limit it waits as long as the service asks, quietly.
 */
export function pollProgress(ctx: PageContext, scanId: string, apply: (s: Status) => Promise<void>, onError: (message: string) => void): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    try {
      if (!document.hidden) {
        const now = await answer(client.GET('/api/scans/{id}/status', { params: { path: { id: scanId } } }));
        if (!ctx.alive()) return;
        await apply(now);
        if (isTerminal(now.status)) return;
      }
    } catch (err) {
      if (!ctx.alive()) return;
      if (err instanceof ApiError && err.status === 429 && err.retryAfterSeconds) {
        timer = setTimeout(tick, err.retryAfterSeconds * 1000);
        return;
      }
      onError((err as Error).message);
    }
    timer = setTimeout(tick, POLL_MS);
  };
  timer = setTimeout(tick, POLL_MS);
  ctx.onLeave(() => {
    stopped = true;
    clearTimeout(timer);
  });
}

/** the progress card: status, bar, the phases in order, findings so far, and a polite live region */
export function progressCard() {
  const status = h('span');
  const bar = h('progress', { max: 100, value: 0, id: 'scan-progress', 'aria-describedby': 'scan-progress-text' });
  const pct = h('span', { id: 'scan-progress-text', class: 'pct' });
  const steps = h('ol', { class: 'phases', 'aria-label': 'Scan phases' });
  const findings = h('strong', { class: 'findings-count' }, '0');
  const findingsLabel = h('span', null, 'Findings so far: ');
  const reason = h('p', { class: 'reason', hidden: true });
  const err = h('p', { class: 'field-error', role: 'alert' });
  // announces changes of phase, status and findings (not every percent, which would be noise)
  const live = h('p', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true', id: 'scan-live' });
  const el = h(
    'section',
    { class: 'card progress-card', 'aria-labelledby': 'progress-title' },
    h('div', { class: 'progress-head' }, h('h2', { id: 'progress-title' }, 'Progress'), status),
    h('div', { class: 'progress-row' }, h('label', { for: 'scan-progress', class: 'visually-hidden' }, 'Scan progress'), bar, pct),
    steps,
    h('p', { class: 'findings-line' }, findingsLabel, findings),
    reason,
    err,
    live,
  );
  let last = '';
  return {
    el,
    update(s: Status) {
      err.textContent = '';
      clear(status).append(statusBadge(s.status));
      bar.value = s.progress ?? 0;
      pct.textContent = `${s.progress ?? 0}%`;
      findings.textContent = String(s.findings_so_far ?? 0);
      findingsLabel.textContent = isTerminal(s.status) ? 'Findings: ' : 'Findings so far: ';
      const at = scanPhases.indexOf(s.phase);
      clear(steps).append(
        ...scanPhases.map((p, i) =>
          h('li', { class: i < at || s.phase === 'done' ? 'phase done' : i === at ? 'phase current' : 'phase', 'aria-current': i === at && s.phase !== 'done' ? 'step' : null }, PHASE_LABEL[p]),
        ),
      );
      if (s.reason) {
        reason.hidden = false;
        reason.textContent = `Reason: ${s.reason}`;
      }
      const said = `Scan ${String(s.status).replace('_', ' ')}, phase ${s.phase}, ${s.findings_so_far ?? 0} findings.`;
      if (said !== last) live.textContent = said;
      last = said;
    },
    error(message: string) {
      err.textContent = `Could not refresh the progress: ${message} Retrying…`;
    },
  };
}
