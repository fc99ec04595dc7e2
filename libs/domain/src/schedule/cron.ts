import { Cron } from 'croner';

/**
 * Cron expressions with a time zone, read by croner (pure computation: no timers are started,
 * the job is created paused and only asked for run times).
 * Five fields only (minute granularity): a schedule that fires every second is not a schedule.
 */
export function cronProblem(cron: string, timezone: string): { field: 'cron' | 'timezone'; message: string } | null {
  if (typeof cron !== 'string' || cron.trim().split(/\s+/).length !== 5) {
    return { field: 'cron', message: 'cron must have five fields: minute hour day-of-month month day-of-week.' };
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    return { field: 'timezone', message: `timezone ${JSON.stringify(timezone)} is not an IANA time zone (e.g. Europe/Paris, UTC).` };
  }
  try {
    if (!cronJob(cron, timezone).nextRun(new Date(0))) return { field: 'cron', message: 'cron never fires.' };
  } catch (err) {
    return { field: 'cron', message: `cron is not valid: ${err instanceof Error ? err.message.replace(/^CronPattern: /, '') : 'unreadable'}` };
  }
  return null;
}

const cronJob = (cron: string, timezone: string) => new Cron(cron.trim(), { timezone, paused: true, legacyMode: true });

/** the first due time strictly after `after` (ISO), or null when there is none */
export function nextDueAfter(cron: string, timezone: string, after: string): string | null {
  return cronJob(cron, timezone).nextRun(new Date(after))?.toISOString() ?? null;
}

/** how far back a catch-up looks: older missed times only count as "more" */
const CATCH_UP_WINDOW_MS = 35 * 24 * 3600_000;

/**
 * The due times in (after, until]: how many there were and the latest. Only the last 35 days are
 * walked (a catch-up after a long downtime needs the latest and a count, not every minute of a year).
 */
export function dueTimesBetween(cron: string, timezone: string, after: string, until: string): { count: number; latest: string | null; truncated: boolean } {
  const job = cronJob(cron, timezone);
  const end = Date.parse(until);
  const from = Math.max(Date.parse(after), end - CATCH_UP_WINDOW_MS);
  let count = 0;
  let latest: Date | null = null;
  let cursor = new Date(from);
  for (;;) {
    const next = job.nextRun(cursor);
    if (!next || next.getTime() > end) break;
    count++;
    latest = next;
    cursor = next;
  }
  return { count, latest: latest?.toISOString() ?? null, truncated: from > Date.parse(after) };
}
