// How dates, URLs and grades read everywhere in the dashboard.
import { h } from './dom';

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateFmt.format(d);
}

export function timeEl(iso: string | null | undefined): HTMLTimeElement | string {
  return iso ? h('time', { datetime: iso }, fmtDate(iso)) : '—';
}

/**
 * A URL as text that wraps only where a reader would: after a slash, a ?, a & or a #, never
 * mid-word unless one piece alone is wider than the line.
 */
export function urlText(url: string | null | undefined, tag: 'span' | 'code' = 'span'): HTMLElement {
  const parts = String(url ?? '').split(/(?<=[/?&#])/);
  const nodes: (string | HTMLElement)[] = [];
  parts.forEach((p, i) => {
    nodes.push(p);
    if (i < parts.length - 1) nodes.push(h('wbr'));
  });
  return h(tag, { class: 'url', title: String(url ?? '') }, ...nodes);
}

/** the grade as it must be shown: a partial scan's grade carries the mark and the share of the plan that ran */
export function gradeText(grade: string | null | undefined, { partial, coverage }: { partial?: boolean | null; coverage?: number | null } = {}): string {
  if (!partial) return grade ?? '';
  return typeof coverage === 'number' ? `${grade} (partial: ${Math.round(coverage * 100)}% of the plan ran)` : `${grade} (partial scan)`;
}

export function gradeClass(grade: string | null | undefined): string {
  const g = String(grade ?? '').charAt(0);
  return ({ A: 'grade-a', B: 'grade-b', C: 'grade-c', D: 'grade-d', F: 'grade-f' } as Record<string, string>)[g] ?? 'grade-none';
}
