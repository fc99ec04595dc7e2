// Per-category score bars, drawn with DOM nodes (no library, no markup strings).
import type { Schemas } from '../api/client';
import { h } from './dom';

const scoreBand = (score: number) => (score >= 90 ? 'good' : score >= 70 ? 'fair' : score >= 50 ? 'poor' : 'bad');
const clamp = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.min(100, Math.round(n))) : 0);

/** per-category scores as horizontal bars; each row is readable text, the bar is decoration */
export function categoryBars(categoryScores: Record<string, Schemas['CategoryScoreView']> | undefined): HTMLUListElement {
  const entries = Object.entries(categoryScores ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return h(
    'ul',
    { class: 'bars', 'aria-label': 'Score per OWASP category' },
    entries.map(([id, c]) => {
      const score = clamp(Number(c?.score ?? 0));
      const fill = h('span', { class: `bar-fill band-${scoreBand(score)}` });
      fill.style.width = `${score}%`; // CSSOM, allowed by the CSP (unlike style attributes)
      return h(
        'li',
        { class: 'bar-row' },
        h('span', { class: 'bar-label' }, h('span', { class: 'mono' }, id), ' ', c?.name ?? ''),
        h('span', { class: 'bar-track', 'aria-hidden': 'true' }, fill),
        h('span', { class: 'bar-value' }, `${score}`, h('span', { class: 'visually-hidden' }, ' out of 100')),
        h('span', { class: 'bar-meta' }, `${c?.probes_run ?? 0} probes, ${c?.findings ?? 0} findings`),
      );
    }),
  );
}
