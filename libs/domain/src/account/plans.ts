import { DomainError } from '../decider';
import type { Plan } from './account';

/** What each plan is entitled to (report formats, scans a month, schedules), as pure rules. */

/**
 * The report formats of the free plan; pro and above get every format the service renders. The rule
 * names only what the free plan keeps, so a new format (libs/reports/src/formats) needs nothing here.
 */
export const FREE_PLAN_REPORT_FORMATS: readonly string[] = ['json'];

/** A report in a format outside the plan is refused (403). */
export function requireReportFormat(plan: Plan, format: string): void {
  if (plan !== 'free' || FREE_PLAN_REPORT_FORMATS.includes(format)) return;
  const allowed = FREE_PLAN_REPORT_FORMATS;
  throw new DomainError('forbidden', `The ${plan} plan includes ${allowed.join(', ')} reports; ${format} needs the pro or enterprise plan.`, {}, {
    rule: 'plan-format', title: 'Format not in your plan', facts: { plan, allowed_formats: allowed },
  });
}

/** Scans per calendar month (UTC) by plan; null: unlimited. */
export type ScanQuotas = Record<Plan, number | null>;

/** The first moment of the calendar month (UTC) that `now` falls in: quotas reset then. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** `YYYY-MM` of an ISO time: the key scans are counted by against the quota */
export const quotaMonth = (iso: string) => iso.slice(0, 7);

/** What the quota rule needs to know when a scan is requested: the plan's allowance and the scans started this month. */
export interface ScanQuotaFacts {
  plan: Plan;
  /** scans the plan allows per calendar month, null: unlimited */
  allowed: number | null;
  /** scans of the account requested in the month of `now` */
  used: number;
}

/** The monthly scan quota: a request past it is refused (429) until the month turns. */
export function requireScanQuota(quota: ScanQuotaFacts, nowIso: string): void {
  const { plan, allowed, used } = quota;
  if (allowed === null || used < allowed) return;
  const now = new Date(nowIso);
  const retryAfterSeconds = Math.ceil((nextMonthStart(now).getTime() - now.getTime()) / 1000);
  throw new DomainError('limit_exceeded', `The ${plan} plan allows ${allowed} scans per calendar month; ${used} were started since ${monthStart(now).toISOString().slice(0, 10)}.`, {}, {
    rule: 'scan-quota', title: 'Scan quota exhausted', retryAfterSeconds, facts: { plan, quota: allowed, used },
  });
}

/** Live schedules (not deleted, paused ones included) an account may keep, by plan; null: unlimited. */
export type ScheduleLimits = Record<Plan, number | null>;

/**
 * Every schedule is looked at on every pass of the scheduler, which all accounts share: the cap
 * keeps one account from making that pass (and the log) as large as it likes.
 */
export const DEFAULT_SCHEDULE_LIMITS: ScheduleLimits = { free: 5, pro: 100, enterprise: 1000 };

/** What the schedule rule needs to know when a schedule is created: the plan's cap and the account's live schedules. */
export interface ScheduleRoomFacts {
  plan: Plan;
  /** schedules the plan allows, null: unlimited */
  allowed: number | null;
  /** the account's live schedules now */
  live: number;
}

/**
 * A schedule past the plan's cap is refused with 403, not 429: it is what the plan includes, like
 * a report format, and no amount of waiting changes it (a 429 promises a Retry-After); deleting a
 * schedule or another plan does.
 */
export function requireScheduleRoom(room: ScheduleRoomFacts): void {
  const { plan, allowed, live } = room;
  if (allowed === null || live < allowed) return;
  throw new DomainError('forbidden', `The ${plan} plan includes ${allowed} schedules and this account has ${live}; delete one, or move to a larger plan, to create another.`, {}, {
    rule: 'schedule-limit', title: 'Schedule limit reached', facts: { plan, schedule_limit: allowed, schedules: live },
  });
}
