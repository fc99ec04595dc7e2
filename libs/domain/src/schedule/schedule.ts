import { Decider, DomainError } from '../decider';
import { DomainEvent, event } from '../events';
import { Profile, PROFILES } from '../scan/scan';
import { requireValidBudget, ScanBudget } from '../scan/budget';
import { normalizeTag } from '../target/tags';
import { requireScheduleRoom, ScheduleRoomFacts } from '../account/plans';
import { cronProblem, dueTimesBetween } from './cron';

/** After a downtime (or any due time the scheduler saw late): run once for the latest missed time, or skip them. */
export const CATCH_UP_POLICIES = ['skip', 'run_once'] as const;
export type CatchUpPolicy = (typeof CATCH_UP_POLICIES)[number];

/** What makes a schedule fire: its cron time table, or each deploy a pipeline reports through the CI api. */
export const SCHEDULE_TRIGGERS = ['cron', 'deploy'] as const;
export type ScheduleTrigger = (typeof SCHEDULE_TRIGGERS)[number];

export interface CronTiming {
  /** five-field cron, read in `timezone` */
  cron: string;
  /** IANA time zone */
  timezone: string;
  catch_up: CatchUpPolicy;
}

/**
 * when a schedule fires and what it scans with (its profile, and the budget each scan it asks for
 * holds to; absent: none): a deploy schedule has no time table at all
 */
export type ScheduleTiming = { profile: Profile; budget?: ScanBudget } & (({ trigger: 'cron' } & CronTiming) | { trigger: 'deploy'; cron: null; timezone: null; catch_up: null });

/** what a change may touch: the profile and budget of any schedule (a budget of null: none any more), the time table of a cron schedule */
export type ScheduleChanges = Partial<CronTiming & { profile: Profile; budget: ScanBudget | null }>;

/** a deploy a pipeline reported: `deploy_id` makes a retry of the same report the same firing */
export interface DeployFacts {
  deploy_id: string;
  environment: string | null;
  version: string | null;
}

/** what a schedule scans: one target, or every live target of the account carrying a tag */
export interface ScheduleSelector {
  target_id: string | null;
  tag: string | null;
}

/** One scan a firing asked for: its id derives from (schedule, due time, target), so asking twice is one scan. */
export interface PlannedScan {
  target_id: string;
  scan_id: string;
}

export const SCHEDULE_SKIP_REASONS = ['previous_scan_running'] as const;

type Owned = { schedule_id: string; account_id: string };

export type ScheduleEvent =
  /** `trigger` is absent on schedules created before deploy schedules existed: those are cron schedules */
  | DomainEvent<'ScheduleCreated', Owned & ScheduleSelector & ScheduleTiming & { paused: boolean; created_at: string }>
  | DomainEvent<'ScheduleChanged', Owned & { changes: ScheduleChanges; changed_at: string }>
  | DomainEvent<'SchedulePaused', Owned & { paused_at: string }>
  | DomainEvent<'ScheduleResumed', Owned & { resumed_at: string }>
  | DomainEvent<'ScheduleDeleted', Owned & { deleted_at: string }>
  /**
   * a due time decided: the scans it asks for, the targets it passed over; `missed` earlier due
   * times it stands for. A deploy schedule's firing carries the `deploy` it answers, and its
   * due_at is when the deploy was reported.
   */
  | DomainEvent<'ScheduledScanFired', Owned & { due_at: string; fired_at: string; missed: number; profile: Profile; scans: PlannedScan[]; skipped: { target_id: string; reason: (typeof SCHEDULE_SKIP_REASONS)[number] }[]; deploy?: DeployFacts }>
  /** due times passed while nothing ran, skipped by the catch-up policy */
  | DomainEvent<'ScheduledRunsMissed', Owned & { due_at: string; missed: number; recorded_at: string }>
  /** a planned scan the scan write path refused (the plan's quota, the target deleted meanwhile) */
  | DomainEvent<'ScheduledScanNotStarted', Owned & { due_at: string; target_id: string; scan_id: string; reason: string; recorded_at: string }>;

/** the one target a schedule names, from its stream (null: no such stream) */
export interface ScheduledTargetFacts {
  account_id: string | null;
  deleted: boolean;
}

export type ScheduleCommand =
  | ({ type: 'CreateSchedule'; schedule_id: string; account_id: string; paused: boolean; target: ScheduledTargetFacts | null; room: ScheduleRoomFacts; now: string } & ScheduleSelector & ScheduleTiming)
  | { type: 'ChangeSchedule'; account_id: string; changes: ScheduleChanges; paused?: boolean; now: string }
  | { type: 'DeleteSchedule'; account_id: string; now: string }
  | { type: 'FireSchedule'; due_at: string; missed: number; targets: (PlannedScan & { busy: boolean })[]; now: string }
  /** a pipeline reported a deploy of targets this (deploy) schedule covers */
  | { type: 'FireOnDeploy'; deploy: DeployFacts; targets: (PlannedScan & { busy: boolean })[]; now: string }
  | { type: 'RecordRunsMissed'; due_at: string; missed: number; now: string }
  | { type: 'RecordScanNotStarted'; due_at: string; target_id: string; scan_id: string; reason: string; now: string };

export interface ScheduleState {
  id: string | null;
  account_id: string | null;
  selector: ScheduleSelector;
  timing: ScheduleTiming | null;
  paused: boolean;
  deleted: boolean;
  /** due times strictly after this are still to decide: creation, resumption, a new timing, the last decided due time */
  anchor: string | null;
  /** the latest firing and which of its scans are settled (requested, or refused): a scheduler that stopped in between finishes it */
  last_firing: { due_at: string; scans: PlannedScan[]; settled: string[] } | null;
  /**
   * the latest deploys this schedule fired on, by deploy_id: a report of the same deploy again fires
   * nothing and is answered with these. Only the last DEPLOYS_REMEMBERED are kept, so a schedule that
   * has answered years of deploys holds no more than a pipeline's retry could need.
   */
  deploys: Record<string, DeployFiring>;
  /** the keys of `deploys`, oldest first (an object's own key order puts numeric ids first) */
  deploy_ids: string[];
}

/** deploys a schedule remembers for answering a retried report; an older one reported again fires again */
export const DEPLOYS_REMEMBERED = 100;

export interface DeployFiring {
  due_at: string;
  scans: PlannedScan[];
  skipped: { target_id: string; reason: (typeof SCHEDULE_SKIP_REASONS)[number] }[];
}

const later = (a: string | null, b: string): string => (a && Date.parse(a) > Date.parse(b) ? a : b);

const DEPLOY_ONLY = 'A deploy schedule has no cron, timezone or catch_up: it fires on each deploy reported through POST /api/ci/deploy.';

/** the timing of a new schedule, or the timing a change gives an existing one (`current`) */
function checkTiming(t: { [K in keyof ScheduleChanges]?: ScheduleChanges[K] | null } & { trigger?: ScheduleTrigger }, current?: ScheduleTiming): void {
  const trigger = current?.trigger ?? t.trigger;
  if (!SCHEDULE_TRIGGERS.includes(trigger!)) throw new DomainError('invalid', `trigger must be one of ${SCHEDULE_TRIGGERS.join(', ')}.`, { field: 'trigger' });
  if (t.profile !== undefined && !PROFILES.includes(t.profile!)) throw new DomainError('invalid', `profile must be one of ${PROFILES.join(', ')}.`, { field: 'profile' });
  if (t.budget) requireValidBudget(t.budget);
  if (trigger === 'deploy') {
    const field = (['cron', 'timezone', 'catch_up'] as const).find((k) => t[k] !== undefined && t[k] !== null);
    if (field) throw new DomainError('invalid', DEPLOY_ONLY, { field });
    return;
  }
  if (t.catch_up !== undefined && !CATCH_UP_POLICIES.includes(t.catch_up!)) throw new DomainError('invalid', `catch_up must be one of ${CATCH_UP_POLICIES.join(', ')}.`, { field: 'catch_up' });
  const problem = cronProblem((t.cron ?? current?.cron)!, (t.timezone ?? current?.timezone)!);
  if (problem) throw new DomainError('invalid', problem.message, { field: problem.field });
}

/** the timing a creation records: a cron schedule's time table, or none for a deploy schedule */
function timingOf(c: ScheduleTiming): ScheduleTiming {
  const budget = c.budget ? { budget: c.budget } : {};
  return c.trigger === 'deploy'
    ? { trigger: 'deploy', cron: null, timezone: null, catch_up: null, profile: c.profile, ...budget }
    : { trigger: 'cron', cron: c.cron.trim(), timezone: c.timezone, catch_up: c.catch_up, profile: c.profile, ...budget };
}

/** the firing of a decision: the targets whose previous scan still runs are passed over */
function firing(targets: (PlannedScan & { busy: boolean })[]): Pick<DeployFiring, 'scans' | 'skipped'> {
  return {
    scans: targets.filter((t) => !t.busy).map(({ target_id, scan_id }) => ({ target_id, scan_id })),
    skipped: targets.filter((t) => t.busy).map((t) => ({ target_id: t.target_id, reason: 'previous_scan_running' as const })),
  };
}

/**
 * A schedule: when to scan a target (or every target of a tag), and the record of each due time
 * decided. Every firing is decided on the schedule's own stream at its expected revision, so two
 * schedulers deciding the same due time cannot both win: the loser decides again, sees the due
 * time taken, and records nothing.
 */
export const scheduleDecider: Decider<ScheduleCommand, ScheduleEvent, ScheduleState> = {
  initialState: () => ({ id: null, account_id: null, selector: { target_id: null, tag: null }, timing: null, paused: false, deleted: false, anchor: null, last_firing: null, deploys: {}, deploy_ids: [] }),

  decide(c, state) {
    if (c.type === 'CreateSchedule') {
      if (state.id) return []; // the same id again is a retry
      if ((c.target_id === null) === (c.tag === null)) throw new DomainError('invalid', 'Give either target_id or tag, not both.', { field: c.target_id ? 'tag' : 'target_id' });
      const tag = c.tag === null ? null : normalizeTag(c.tag);
      if (c.tag !== null && !tag) throw new DomainError('invalid', 'tag is not a valid tag.', { field: 'tag' });
      // another account's target answers exactly like an absent one
      if (c.target_id !== null && (!c.target || c.target.deleted || c.target.account_id !== c.account_id)) throw new DomainError('not_found', 'Target not found.');
      checkTiming(c);
      requireScheduleRoom(c.room);
      return [event('ScheduleCreated', { schedule_id: c.schedule_id, account_id: c.account_id, target_id: c.target_id, tag, ...timingOf(c), paused: c.paused, created_at: c.now })];
    }
    const system = c.type === 'FireSchedule' || c.type === 'FireOnDeploy' || c.type === 'RecordRunsMissed' || c.type === 'RecordScanNotStarted';
    if (!state.id || !state.timing || (!system && (state.deleted || state.account_id !== c.account_id))) throw new DomainError('not_found', 'Schedule not found.');
    const owned = { schedule_id: state.id, account_id: state.account_id! };

    switch (c.type) {
      case 'ChangeSchedule': {
        // a budget is compared by what it says (a new object that says the same changes nothing)
        const same = (k: string, v: unknown) => (k === 'budget' ? JSON.stringify(v ?? null) === JSON.stringify(state.timing!.budget ?? null) : v === state.timing![k as keyof ScheduleChanges]);
        const changes = Object.fromEntries(Object.entries(c.changes).filter(([k, v]) => v !== undefined && !same(k, v))) as ScheduleChanges;
        const out: ScheduleEvent[] = [];
        if (Object.keys(changes).length) {
          checkTiming(changes, state.timing);
          out.push(event('ScheduleChanged', { ...owned, changes, changed_at: c.now }));
        }
        if (c.paused === true && !state.paused) out.push(event('SchedulePaused', { ...owned, paused_at: c.now }));
        if (c.paused === false && state.paused) out.push(event('ScheduleResumed', { ...owned, resumed_at: c.now }));
        return out;
      }
      case 'DeleteSchedule':
        return [event('ScheduleDeleted', { ...owned, deleted_at: c.now })];

      case 'FireSchedule': {
        // paused, deleted, or this due time (or a later one) already decided: a late or losing scheduler records nothing
        if (state.timing.trigger !== 'cron' || state.paused || state.deleted || !isUndecided(state, c.due_at)) return [];
        return [event('ScheduledScanFired', { ...owned, due_at: c.due_at, fired_at: c.now, missed: c.missed, profile: state.timing.profile, ...firing(c.targets) })];
      }
      case 'FireOnDeploy': {
        if (state.timing.trigger !== 'deploy') throw new DomainError('conflict', 'Only a deploy schedule fires on a deploy.');
        // paused, deleted, or this deploy already fired on (a retried report, a second api process): nothing more
        if (state.paused || state.deleted || state.deploys[c.deploy.deploy_id]) return [];
        return [event('ScheduledScanFired', { ...owned, due_at: c.now, fired_at: c.now, missed: 0, profile: state.timing.profile, ...firing(c.targets), deploy: c.deploy })];
      }
      case 'RecordRunsMissed':
        if (state.timing.trigger !== 'cron' || state.paused || state.deleted || !isUndecided(state, c.due_at)) return [];
        return [event('ScheduledRunsMissed', { ...owned, due_at: c.due_at, missed: c.missed, recorded_at: c.now })];

      case 'RecordScanNotStarted':
        if (!state.last_firing || state.last_firing.due_at !== c.due_at || state.last_firing.settled.includes(c.scan_id)) return [];
        return [event('ScheduledScanNotStarted', { ...owned, due_at: c.due_at, target_id: c.target_id, scan_id: c.scan_id, reason: c.reason, recorded_at: c.now })];
    }
  },

  evolve(state, e) {
    switch (e.type) {
      case 'ScheduleCreated': {
        const d = e.data;
        // version 1 of the event (before deploy schedules) has no trigger: a cron schedule
        const timing = timingOf({ ...d, trigger: d.trigger ?? 'cron' } as ScheduleTiming);
        return { ...state, id: d.schedule_id, account_id: d.account_id, selector: { target_id: d.target_id, tag: d.tag }, timing, paused: d.paused, anchor: d.created_at };
      }
      case 'ScheduleChanged': {
        const { budget, ...changes } = e.data.changes;
        const timing = { ...state.timing!, ...changes } as ScheduleTiming;
        if (budget === null) delete timing.budget;
        else if (budget) timing.budget = budget;
        // a new time table starts now: times the old one had due are not owed by the new one
        const retimed = e.data.changes.cron !== undefined || e.data.changes.timezone !== undefined;
        return { ...state, timing, anchor: retimed ? later(state.anchor, e.data.changed_at) : state.anchor };
      }
      case 'SchedulePaused':
        return { ...state, paused: true };
      case 'ScheduleResumed':
        // what fell due while paused is not owed
        return { ...state, paused: false, anchor: later(state.anchor, e.data.resumed_at) };
      case 'ScheduleDeleted':
        return { ...state, deleted: true };
      case 'ScheduledScanFired': {
        const { due_at, scans, skipped, deploy } = e.data;
        const last_firing = { due_at, scans, settled: [] };
        if (deploy) return { ...state, last_firing, ...remembered(state, deploy.deploy_id, { due_at, scans, skipped }) };
        return { ...state, anchor: later(state.anchor, due_at), last_firing };
      }
      case 'ScheduledRunsMissed':
        return { ...state, anchor: later(state.anchor, e.data.due_at) };
      case 'ScheduledScanNotStarted':
        return state.last_firing?.due_at === e.data.due_at ? { ...state, last_firing: { ...state.last_firing, settled: [...state.last_firing.settled, e.data.scan_id] } } : state;
      default:
        return state;
    }
  },
};

const isUndecided = (state: ScheduleState, due_at: string) => !state.anchor || Date.parse(due_at) > Date.parse(state.anchor);

/** What a scheduler does about a schedule now. */
export type ScheduleDue =
  | { kind: 'nothing' }
  | { kind: 'fire'; due_at: string; missed: number }
  | { kind: 'skip_missed'; due_at: string; missed: number };

/**
 * The catch-up policy (pure): of the due times not yet decided, the latest is fired when it is
 * on time (no older than `graceMs`: the scheduler was running and simply ticked after it); a
 * latest that is late means the schedulers were down, and the policy says whether it runs once
 * (run_once) or is recorded as missed (skip). Older undecided times are never each run.
 */
export function scheduleDue(state: ScheduleState, now: string, graceMs: number): ScheduleDue {
  if (!state.id || state.timing?.trigger !== 'cron' || !state.anchor || state.paused || state.deleted) return { kind: 'nothing' };
  const { count, latest, truncated } = dueTimesBetween(state.timing.cron, state.timing.timezone, state.anchor, now);
  if (!latest) return { kind: 'nothing' };
  const missed = count - 1 + (truncated ? 1 : 0);
  const onTime = Date.parse(now) - Date.parse(latest) <= graceMs;
  if (onTime || state.timing.catch_up === 'run_once') return { kind: 'fire', due_at: latest, missed };
  return { kind: 'skip_missed', due_at: latest, missed: missed + 1 };
}

/** the scans of the latest firing not yet settled: a scheduler requests each again (the scan id makes a repeat a no-op) */
export function unsettledScans(state: ScheduleState): PlannedScan[] {
  const last = state.last_firing;
  return last ? last.scans.filter((s) => !last.settled.includes(s.scan_id)) : [];
}

/** `deploys` with one more firing, the oldest forgotten past DEPLOYS_REMEMBERED */
function remembered(state: ScheduleState, deploy_id: string, firing: DeployFiring): Pick<ScheduleState, 'deploys' | 'deploy_ids'> {
  const deploy_ids = [...state.deploy_ids.filter((id) => id !== deploy_id), deploy_id];
  const deploys = { ...state.deploys, [deploy_id]: firing };
  for (const forgotten of deploy_ids.splice(0, Math.max(0, deploy_ids.length - DEPLOYS_REMEMBERED))) delete deploys[forgotten];
  return { deploys, deploy_ids };
}
