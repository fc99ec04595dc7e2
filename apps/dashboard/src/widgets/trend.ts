// A target's score and open findings over its finished scans, drawn by uPlot (bundled with the
// dashboard; its stylesheet is copied beside the dashboard's by infra/build.js), with the same figures as a table
// for screen readers and keyboard users.
import uPlot from 'uplot';
import type { Schemas } from '../api/client';
import { severities } from '../api/enums';
import { h } from './dom';
import { fmtDate } from './format';

type Point = Schemas['TrendPointView'];

const COLORS: Record<'score' | (typeof severities)[number], string> = { score: '#1f5fbf', critical: '#b00020', high: '#d9480f', medium: '#b08800', low: '#5c7080' };
const openTotal = (o: Point['open_findings'] | undefined) => severities.reduce((n, s) => n + (o?.[s] ?? 0), 0);

/** one sentence that says what the chart shows: its aria description */
export function trendSummary(points: Point[]): string {
  if (!points.length) return 'No finished scans yet.';
  const first = points[0];
  const last = points[points.length - 1];
  const change = last.score - first.score;
  const dir = change > 0 ? `up ${change}` : change < 0 ? `down ${-change}` : 'unchanged';
  return `Security score over ${points.length} finished scan${points.length === 1 ? '' : 's'} from ${fmtDate(first.finished_at)} to ${fmtDate(last.finished_at)}: ` +
    `${first.score} to ${last.score} (${dir}); open findings after triage now ${openTotal(last.open_findings)} (critical ${last.open_findings.critical}, high ${last.open_findings.high}).`;
}

/** the figures of the chart as a table (the text alternative) */
export function trendTable(points: Point[]): HTMLTableElement {
  return h(
    'table',
    { class: 'table table-compact trend-table' },
    h('caption', null, 'Score and open findings after triage, per finished scan'),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Finished'), h('th', { scope: 'col' }, 'Score'), h('th', { scope: 'col' }, 'Grade'), ...severities.map((s) => h('th', { scope: 'col' }, s)))),
    h('tbody', null, points.map((p) =>
      h('tr', null,
        h('th', { scope: 'row' }, h('a', { href: `/app/scans/${p.scan_id}` }, fmtDate(p.finished_at))),
        h('td', null, String(p.score)),
        h('td', null, p.partial ? `${p.grade} (partial)` : p.grade),
        ...severities.map((s) => h('td', null, String(p.open_findings[s]))),
      ),
    )),
  );
}

/**
 * The chart: score (left axis, 0..100) and open findings by severity (right axis), one point per
 * scan. The canvas is decoration for assistive technology: the figure carries the summary as its
 * description and the table beside it has every value.
 */
export function trendChart(points: Point[], { width = 680, height = 260 } = {}): HTMLElement {
  const id = `trend-${Math.random().toString(36).slice(2, 8)}`;
  const summary = trendSummary(points);
  const plot = h('div', { class: 'trend-plot', role: 'img', 'aria-label': summary, 'aria-describedby': `${id}-table` });
  const table = trendTable(points);
  table.id = `${id}-table`;
  const figure = h('figure', { class: 'trend' }, plot, h('figcaption', { class: 'sub' }, summary), h('details', { class: 'trend-data' }, h('summary', null, 'Chart data as a table'), table));
  if (points.length === 0) return figure;
  const xs = points.map((p) => Math.floor(Date.parse(p.finished_at) / 1000));
  const data: uPlot.AlignedData = [xs, points.map((p) => p.score), ...severities.map((s) => points.map((p) => p.open_findings[s]))];
  const opts: uPlot.Options = {
    width,
    height,
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: true }, score: { range: [0, 100] }, findings: { range: (_u, _min, max) => [0, Math.max(4, max + 1)] } },
    axes: [
      { stroke: '#5c7080' },
      { scale: 'score', label: 'Score', stroke: '#5c7080' },
      { scale: 'findings', side: 1, label: 'Open findings', stroke: '#5c7080', grid: { show: false } },
    ],
    series: [
      { label: 'Finished' },
      { label: 'Score', scale: 'score', stroke: COLORS.score, width: 2.5, points: { size: 7 } },
      ...severities.map((s) => ({ label: `Open ${s}`, scale: 'findings', stroke: COLORS[s], width: 1.5, dash: s === 'low' ? [4, 4] : undefined, points: { size: 5 } })),
    ],
  };
  // uPlot measures its container: draw once the figure is in the document
  let frames = 0;
  const draw = () => {
    if (!plot.isConnected) return void (++frames < 30 && requestAnimationFrame(draw));
    new uPlot({ ...opts, width: Math.min(width, plot.clientWidth || width) }, data, plot);
    plot.querySelector('canvas')?.setAttribute('aria-hidden', 'true');
  };
  requestAnimationFrame(draw);
  return figure;
}
