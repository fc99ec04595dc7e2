import { isStream, nextDueAfter, type DeployFacts, type ScanBudget, scheduleDecider, type PlannedScan, type ScheduleEvent, type ScheduleState } from '@gauntlet/domain';
import type { RecordedEvent } from '@gauntlet/eventstore';
import { Projection } from './projection';

/** A schedule as the api, the dashboard and the scheduler's list read it. */
export interface ScheduleDoc {
  _id: string;
  _rev?: number;
  account_id: string;
  target_id: string | null;
  tag: string | null;
  /** absent on documents projected before deploy schedules existed: cron */
  trigger?: 'cron' | 'deploy';
  /** null for a deploy schedule */
  cron: string | null;
  timezone: string | null;
  profile: string;
  /** the budget each scan it asks for holds to (absent or null: none) */
  budget?: ScanBudget | null;
  catch_up: string | null;
  paused: boolean;
  deleted: boolean;
  created_at: string;
  updated_at: string;
  /** the next due time still to decide (null while paused): computed from the recorded time table, so a replay gives the same */
  next_due_at: string | null;
  last_firing: { due_at: string; fired_at: string; missed: number; scans: PlannedScan[]; skipped: { target_id: string; reason: string }[]; deploy?: DeployFacts } | null;
  /** the due times recorded as missed (catch-up skip) */
  missed_total: number;
  /** the decider's own fold (without the deploys fired on), so the next event folds as the write path does */
  state: ScheduleState;
  [k: string]: unknown;
}

/** a deploy schedule has no next due time: it fires when a pipeline reports a deploy */
const nextDue = (s: ScheduleState): string | null => (s.paused || s.deleted || s.timing?.trigger !== 'cron' || !s.anchor ? null : nextDueAfter(s.timing.cron, s.timing.timezone, s.anchor));

export const schedulesProjection: Projection<ScheduleDoc> = {
  collection: 'schedules',
  indexes: [['account_id', 'deleted', 'created_at'], ['deleted', 'paused']],
  documentId: (e) => (isStream('schedule', e.streamId) ? e.data.schedule_id : null),
  apply(doc, event) {
    const e = event as RecordedEvent & ScheduleEvent;
    // the deploys a schedule fired on are the write path's to know (it reads the stream): the
    // document keeps the rest of the fold, so it does not grow with every deploy
    const state = { ...scheduleDecider.evolve(doc?.state ?? scheduleDecider.initialState(), e), deploys: {} };
    if (!state.id || !state.timing) return doc;
    const at = (e.data as Record<string, unknown>)[{ ScheduleCreated: 'created_at', ScheduleChanged: 'changed_at', SchedulePaused: 'paused_at', ScheduleResumed: 'resumed_at', ScheduleDeleted: 'deleted_at' }[e.type as string] ?? ''] as string | undefined;
    const base: ScheduleDoc = doc ?? {
      _id: state.id, account_id: state.account_id!, target_id: state.selector.target_id, tag: state.selector.tag, ...state.timing, paused: state.paused, deleted: false,
      created_at: at!, updated_at: at!, next_due_at: null, last_firing: null, missed_total: 0, state,
    };
    const next: ScheduleDoc = { ...base, ...state.timing, budget: state.timing.budget ?? null, _rev: e.revision, paused: state.paused, deleted: state.deleted, state, next_due_at: nextDue(state), updated_at: at ?? base.updated_at };
    if (e.type === 'ScheduledScanFired') {
      const { due_at, fired_at, missed, scans, skipped, deploy } = e.data;
      next.last_firing = { due_at, fired_at, missed, scans, skipped, ...(deploy && { deploy }) };
    }
    if (e.type === 'ScheduledRunsMissed') next.missed_total = base.missed_total + e.data.missed;
    return next;
  },
};
