import type { Plan } from '@gauntlet/domain';
import { REPORT_FORMATS, ReportFormat } from '@gauntlet/reports';

/** Free plan: json only. Pro and above: all formats (api-spec.md section 4). */
export function reportFormatsFor(plan: Plan): readonly ReportFormat[] {
  return plan === 'free' ? ['json'] : REPORT_FORMATS;
}

export type ScanQuotas = Record<Plan, number | null>;

/** The first moment of the calendar month (UTC) that `now` falls in: quotas reset then. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
