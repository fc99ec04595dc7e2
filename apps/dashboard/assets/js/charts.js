// Two small charts, drawn with DOM and SVG nodes (no library, no markup strings).
import { h, s, fmtDate } from './dom.js';

const scoreBand = (score) => (score >= 90 ? 'good' : score >= 70 ? 'fair' : score >= 50 ? 'poor' : 'bad');

/** per-category scores as horizontal bars; each row is readable text, the bar is decoration */
export function categoryBars(categoryScores) {
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

const clamp = (n) => (Number.isFinite(n) ? Math.max(0, Math.min(100, Math.round(n))) : 0);

/** score over time: points are finished scans, oldest left; the y axis is 0..100 */
export function scoreLine(points, { width = 640, height = 200 } = {}) {
  const pad = { l: 36, r: 16, t: 14, b: 30 };
  const w = width - pad.l - pad.r;
  const hgt = height - pad.t - pad.b;
  const n = points.length;
  const x = (i) => pad.l + (n === 1 ? w / 2 : (i * w) / (n - 1));
  const y = (v) => pad.t + hgt - (clamp(v) / 100) * hgt;
  const last = points[n - 1];
  const label = `Security score over ${n} finished scan${n === 1 ? '' : 's'}, latest ${last.score} (${last.grade ?? 'no grade'}).`;

  const grid = [0, 25, 50, 75, 100].map((v) =>
    s('g', { class: 'grid' }, s('line', { x1: pad.l, x2: width - pad.r, y1: y(v), y2: y(v) }), s('text', { x: pad.l - 6, y: y(v) + 4, 'text-anchor': 'end' }, String(v))),
  );
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.score).toFixed(1)}`).join(' ');
  const dots = points.map((p, i) =>
    s('circle', { cx: x(i), cy: y(p.score), r: 4, class: 'dot' }, s('title', null, `${fmtDate(p.at)}: ${p.score} (${p.grade ?? '—'})`)),
  );
  const xLabels = [0, n - 1].filter((v, i, a) => a.indexOf(v) === i).map((i) =>
    s('text', { x: x(i), y: height - 8, 'text-anchor': n === 1 ? 'middle' : i === 0 ? 'start' : 'end', class: 'axis' }, fmtDate(points[i].at)),
  );
  return s(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, class: 'line-chart', role: 'img', 'aria-label': label, preserveAspectRatio: 'xMidYMid meet' },
    s('title', null, label),
    ...grid,
    s('path', { d: path, class: 'line' }),
    ...dots,
    ...xLabels,
  );
}
