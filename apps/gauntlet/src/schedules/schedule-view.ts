import type { CatchUpPolicy, Profile } from '@gauntlet/domain';
import type { ScheduleDoc } from '@gauntlet/read-models';
import type { ScheduleView } from './dto';

export function scheduleView(d: ScheduleDoc): ScheduleView {
  return {
    id: d._id, target_id: d.target_id, tag: d.tag, trigger: d.trigger ?? 'cron', cron: d.cron, timezone: d.timezone, profile: d.profile as Profile, catch_up: d.catch_up as CatchUpPolicy | null,
    budget: d.budget ?? null, paused: d.paused, next_run_at: d.next_due_at, last_firing: d.last_firing, missed_total: d.missed_total ?? 0, created_at: d.created_at, updated_at: d.updated_at,
  };
}
