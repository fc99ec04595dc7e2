import { Decider, DomainError } from '../decider';
import { DomainEvent, event } from '../events';
import { ProbeAttempt, ProvenWeakness, ScanScore, Severity, Vulnerability } from './vulnerability';
import type { Regression } from './regression';
import type { OutOfBandHit } from '../agent/callbacks';
import { BUDGET_STOP, hasLimit, requireValidBudget, ScanBudget, ScanSpending, Unfinished } from './budget';
import type { RequestPlan } from './request-plan';
import type { Profile } from './profile';

/**
 * Requests recorded per planted address (whichever spelling carried it: a path, a host name, a lookup): a target (or someone who copied the address) hitting it
 * in a loop adds this many events at most, the rest are dropped (the first ones prove it already).
 */
export const MAX_HITS_PER_TOKEN = 20;

/** the address a hit counts against: its one spelling, or the token it came by on a hit recorded before that was kept */
const plantedAddress = (hit: OutOfBandHit): string => hit.address ?? hit.token;

export const SCAN_STATUSES = ['pending', 'running', 'completed', 'completed_partial', 'failed', 'cancelled'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
export const TERMINAL_STATUSES: readonly ScanStatus[] = ['completed', 'completed_partial', 'failed', 'cancelled'];
export const PHASES = ['queued', 'recon', 'probe', 'amplify', 'analyze', 'report', 'done'] as const;
export type Phase = (typeof PHASES)[number];
export { PROFILES, type Profile } from './profile';
/** What a CI scan's gate fails on: the score below fail_threshold, or any finding new since the target's previous scan. */
export const CI_FAIL_ON = ['score', 'new'] as const;
export type CiFailOn = (typeof CI_FAIL_ON)[number];
/** Who asked for a scan: a person over the api, a pipeline, or a schedule firing. */
export const SCAN_ORIGINS = ['api', 'ci', 'schedule'] as const;
export type ScanOrigin = (typeof SCAN_ORIGINS)[number];
/** the firing a scheduled scan came from (additive: absent on other scans) */
export interface ScheduledBy {
  schedule_id: string;
  due_at: string;
}
/** How a CI scan is gated, chosen when it is requested (additive: absent on older scans, which gate on the score). */
export interface CiGatePolicy {
  fail_on: CiFailOn;
  /** a completed_partial scan is gated on what it found instead of answering 424 */
  allow_partial: boolean;
}

/**
 * Which probes a scan runs when not every probe of its profile (additive: absent on older scans,
 * which ran them all). A probe runs when its category or its id is listed.
 */
export interface ProbeSelection {
  /** edition-qualified OWASP ids, e.g. LLM01:2025 */
  categories?: string[];
  /** probe ids from the catalogue, e.g. pi-001 */
  probes?: string[];
  /** probes written by the user (gauntlet.yaml), run and escalated beside the catalogue's */
  custom?: CustomProbe[];
}

/** A probe written without code: what it sends, where it belongs, and what proves it got through. */
export interface CustomProbe {
  /** custom-<name>, unique in the scan */
  id: string;
  /** edition-qualified OWASP id, e.g. LLM01:2025 */
  category: string;
  severity: Severity;
  title: string;
  /** user messages sent in order in one conversation */
  turns: string[];
  /**
   * its proof besides the target's canaries and sensitive values (always looked for): this
   * regular expression (case-insensitive) in an answer, not copied from the prompt
   */
  pattern?: string;
}

export type ScanEvent =
  | DomainEvent<'ScanRequested', {
      scan_id: string; account_id: string; target_id: string; target_name: string; profile: Profile;
      origin: ScanOrigin; fail_threshold: number | null; requested_at: string; gate?: CiGatePolicy; selection?: ProbeSelection; scheduled_by?: ScheduledBy;
      /** what the scan may spend on its target, and the prices it is counted at (absent: no budget) */
      budget?: ScanBudget;
    }>
  | DomainEvent<'ScanStarted', { scan_id: string; worker_id: string; started_at: string }>
  /** the plan the scanner made as it started: what the scan's requests and tokens are shown beside */
  | DomainEvent<'ScanPlanned', { scan_id: string; plan: RequestPlan; planned_at: string }>
  | DomainEvent<'ScanPhaseEntered', { scan_id: string; phase: Phase; progress: number; entered_at: string }>
  /**
   * findings_so_far: distinct weaknesses proven up to this attempt; proved: those this attempt
   * proved first (both absent on attempts recorded before they were counted); seconds_left: the
   * time the work still planned should take at the target's throughput as the scanner measured
   * it then (absent: not known)
   */
  | DomainEvent<'ProbeAttempted', {
      scan_id: string; attempt: ProbeAttempt; progress: number; attempted_at: string; findings_so_far?: number; proved?: ProvenWeakness[]; seconds_left?: number;
      /** requests sent to the target so far, as its budget counts them (retries and tool rounds too; absent on attempts from before they were counted) */
      requests_sent?: number;
    }>
  | DomainEvent<'VulnerabilityFound', { scan_id: string; vulnerability: Vulnerability }>
  | DomainEvent<'ScanCompleted', { scan_id: string; score: ScanScore; finished_at: string }>
  /**
   * version 2 records coverage (the share of the plan that ran); version 1 lacks it: partialCoverage
   * reads both. A scan stopped at its budget says what it did not finish (`unfinished`).
   */
  | DomainEvent<'ScanCompletedPartial', { scan_id: string; reason: string; score: ScanScore; finished_at: string; coverage?: number; unfinished?: Unfinished }>
  /** what the scan spent (requests and tokens, the target's and the models' apart), recorded as its run ended */
  | DomainEvent<'ScanSpent', { scan_id: string; spending: ScanSpending; recorded_at: string }>
  | DomainEvent<'ScanFailed', { scan_id: string; reason: string; finished_at: string }>
  | DomainEvent<'ScanCancelled', { scan_id: string; cancelled_by: string; finished_at: string }>
  /** recorded once per reason after the scan finished, so a replay raises the same alerts */
  /**
   * a request reached an address one of the scan's attempts planted (the callback listener);
   * after_scan: it came once the scan had ended, so no finding or score includes it
   */
  | DomainEvent<'OutOfBandHit', { scan_id: string; hit: OutOfBandHit; after_scan: boolean }>
  | DomainEvent<'ScanRegressed', { scan_id: string; target_id: string; detected_at: string } & Regression>;

/** The target as a scan request needs it, folded from the target's own stream (null: no such stream). */
export interface ScannedTargetFacts {
  account_id: string | null;
  name: string;
  deleted: boolean;
}

export type ScanCommand =
  | {
      type: 'RequestScan'; scan_id: string; account_id: string; target_id: string; profile: Profile; origin: ScanOrigin; fail_threshold: number | null; gate?: CiGatePolicy; selection?: ProbeSelection; now: string;
      scheduled_by?: ScheduledBy;
      budget?: ScanBudget | null;
      /** the requested target, from its stream: only the account's own, live target can be scanned */
      target: ScannedTargetFacts | null;
    }
  | { type: 'StartScan'; worker_id: string; now: string }
  | { type: 'RecordPlan'; plan: RequestPlan; now: string }
  | { type: 'EnterPhase'; phase: Phase; progress: number; now: string }
  | { type: 'RecordProbeAttempt'; attempt: ProbeAttempt; progress: number; now: string; findings_so_far?: number; proved?: ProvenWeakness[]; seconds_left?: number; requests_sent?: number }
  | { type: 'RecordVulnerability'; vulnerability: Vulnerability }
  | { type: 'CompleteScan'; score: ScanScore; now: string }
  | { type: 'CompleteScanPartially'; reason: string; score: ScanScore; now: string }
  /** the scanner stopped sending at the scan's budget: it ends partial, saying what it did not finish */
  | { type: 'StopAtBudget'; unfinished: Unfinished; score: ScanScore; now: string }
  | { type: 'RecordSpending'; spending: ScanSpending; now: string }
  | { type: 'FailScan'; reason: string; now: string }
  | { type: 'CancelScan'; account_id: string; cancelled_by: string; now: string }
  | { type: 'RecordRegression'; regression: Regression; now: string }
  | { type: 'RecordOutOfBandHit'; hit: OutOfBandHit };

export interface ScanState {
  id: string | null;
  account_id: string | null;
  target_id: string | null;
  requested_at: string | null;
  status: ScanStatus;
  phase: Phase;
  progress: number;
  worker_id: string | null;
  /** the fingerprint of each finding, by its id: what a triage decision applies to */
  findings: Record<string, string>;
  /** the probe-and-category fingerprints each finding supersedes, by its id (absent: none) */
  supersedes?: Record<string, string[]>;
  attemptIds: string[];
  /** the running count of weaknesses proven, as the attempts recorded it */
  findingsSoFar: number;
  /** the score it finished with (completed or partial) */
  score?: number;
  /** regression reasons already recorded */
  regressions?: string[];
  /** out-of-band requests recorded, per planted address (OutOfBandHit.address) */
  hitsByToken?: Record<string, number>;
  /** what it may spend (absent: no budget) */
  budget?: ScanBudget;
  /** its plan and its spending were recorded */
  planned?: boolean;
  spent?: boolean;
}

const clampProgress = (p: number) => Math.max(0, Math.min(100, Math.floor(p)));

function requireRunning(state: ScanState): void {
  if (state.status === 'running') return;
  throw new DomainError('conflict', `Scan is ${state.status}, not running.`, { status: state.status });
}

export const scanDecider: Decider<ScanCommand, ScanEvent, ScanState> = {
  initialState: () => ({ id: null, account_id: null, target_id: null, requested_at: null, status: 'pending', phase: 'queued', progress: 0, worker_id: null, findings: {}, attemptIds: [], findingsSoFar: 0 }),

  decide(command, state) {
    if (command.type === 'RequestScan') {
      if (state.id) return []; // the same id again is a retry
      const { scan_id, account_id, target_id, target, profile, origin, fail_threshold, gate, selection, scheduled_by, budget, now } = command;
      if (budget) requireValidBudget(budget);
      // another account's target answers exactly like an absent one
      if (!target || target.deleted || target.account_id !== account_id) throw new DomainError('not_found', 'Target not found.');
      return [
        event('ScanRequested', {
          scan_id, account_id, target_id, target_name: target.name, profile, origin, fail_threshold, requested_at: now, ...(gate && { gate }), ...(selection && { selection }), ...(scheduled_by && { scheduled_by }),
          ...(budget && { budget }),
        }),
      ];
    }
    if (!state.id) throw new DomainError('not_found', 'Scan not found.');
    const scan_id = state.id;

    switch (command.type) {
      case 'StartScan':
        if (state.status === 'running' && state.worker_id === command.worker_id) return [];
        if (state.status !== 'pending') {
          throw new DomainError('conflict', `Scan is ${state.status}; it cannot be started.`, { status: state.status });
        }
        return [event('ScanStarted', { scan_id, worker_id: command.worker_id, started_at: command.now })];

      case 'RecordPlan':
        requireRunning(state);
        // the plan is made once, as the scan starts: a scanner that takes it over does not plan again
        if (state.planned) return [];
        return [event('ScanPlanned', { scan_id, plan: command.plan, planned_at: command.now })];

      case 'EnterPhase': {
        requireRunning(state);
        const from = PHASES.indexOf(state.phase);
        const to = PHASES.indexOf(command.phase);
        if (to === from) return [];
        if (to < from || command.phase === 'done' || command.phase === 'queued') {
          throw new DomainError('conflict', `Scan cannot move from phase ${state.phase} to ${command.phase}.`);
        }
        return [event('ScanPhaseEntered', { scan_id, phase: command.phase, progress: Math.max(state.progress, clampProgress(command.progress)), entered_at: command.now })];
      }

      case 'RecordProbeAttempt':
        requireRunning(state);
        if (state.attemptIds.includes(command.attempt.attempt_id)) return [];
        return [
          event('ProbeAttempted', {
            scan_id, attempt: command.attempt, progress: Math.max(state.progress, clampProgress(command.progress)), attempted_at: command.now,
            // the running count never goes down, whatever order the writes come in
            ...(command.findings_so_far !== undefined && { findings_so_far: Math.max(state.findingsSoFar, command.findings_so_far) }),
            ...(command.proved?.length && { proved: command.proved }),
            ...(command.seconds_left !== undefined && Number.isFinite(command.seconds_left) && { seconds_left: Math.max(0, Math.round(command.seconds_left)) }),
            ...(command.requests_sent !== undefined && { requests_sent: command.requests_sent }),
          }),
        ];

      case 'RecordVulnerability':
        requireRunning(state);
        if (Object.hasOwn(state.findings, command.vulnerability.id)) return [];
        // version 3: one finding per weakness (category and what it exposed or did) with its instances (the store's reading side upcasts versions 1 and 2, upcastEvent)
        return [event('VulnerabilityFound', { scan_id, vulnerability: command.vulnerability }, 3)];

      case 'CompleteScan':
        requireRunning(state);
        return [event('ScanCompleted', { scan_id, score: command.score, finished_at: command.now })];

      case 'CompleteScanPartially':
        requireRunning(state);
        // what share of the plan ran is recorded once, as the scan stopped: its progress then
        return [event('ScanCompletedPartial', { scan_id, reason: command.reason, score: command.score, finished_at: command.now, coverage: coverageAt(state.progress) }, 2)];

      case 'StopAtBudget':
        requireRunning(state);
        // only a budget stops a scan this way: a scan without one cannot have reached it
        if (!hasLimit(state.budget) || state.budget![command.unfinished.limit] === undefined) {
          throw new DomainError('conflict', `Scan has no ${command.unfinished.limit} to stop at.`);
        }
        return [event('ScanCompletedPartial', { scan_id, reason: BUDGET_STOP, score: command.score, finished_at: command.now, coverage: coverageAt(state.progress), unfinished: command.unfinished }, 2)];

      case 'RecordSpending':
        // what was spent is known once the run is over, whatever ended it (a cancel ends the scan before its run stops)
        if (state.status === 'pending') throw new DomainError('conflict', 'Scan has not started; it spent nothing.');
        if (state.spent) return [];
        return [event('ScanSpent', { scan_id, spending: command.spending, recorded_at: command.now })];

      case 'FailScan':
        if (state.status !== 'pending' && state.status !== 'running') {
          throw new DomainError('conflict', `Scan is already ${state.status}.`, { status: state.status });
        }
        return [event('ScanFailed', { scan_id, reason: command.reason, finished_at: command.now })];

      case 'CancelScan':
        if (state.account_id !== command.account_id) throw new DomainError('not_found', 'Scan not found.');
        if (state.status === 'cancelled') return [];
        if (state.status !== 'pending' && state.status !== 'running') {
          throw new DomainError('conflict', `Scan is already ${state.status}; only pending or running scans can be cancelled.`, { status: state.status });
        }
        return [event('ScanCancelled', { scan_id, cancelled_by: command.cancelled_by, finished_at: command.now })];

      case 'RecordRegression':
        if (state.status !== 'completed' && state.status !== 'completed_partial') {
          throw new DomainError('conflict', `Scan is ${state.status}; only a finished scan can regress.`, { status: state.status });
        }
        if (state.regressions?.includes(command.regression.reason)) return [];
        return [event('ScanRegressed', { scan_id, target_id: state.target_id!, detected_at: command.now, ...command.regression })];

      case 'RecordOutOfBandHit': {
        // in any state: a target may fetch a planted address long after the scan asked it to
        const { hit } = command;
        if (hit.scan_id !== scan_id) throw new DomainError('conflict', 'The hit belongs to another scan.');
        if ((state.hitsByToken?.[plantedAddress(hit)] ?? 0) >= MAX_HITS_PER_TOKEN) return [];
        return [event('OutOfBandHit', { scan_id, hit, after_scan: isTerminal(state.status) })];
      }
    }
  },

  evolve(state, e) {
    switch (e.type) {
      case 'ScanRequested':
        return {
          ...state, id: e.data.scan_id, account_id: e.data.account_id, target_id: e.data.target_id, requested_at: e.data.requested_at, status: 'pending', phase: 'queued',
          ...(e.data.budget && { budget: e.data.budget }),
        };
      case 'ScanPlanned':
        return { ...state, planned: true };
      case 'ScanSpent':
        return { ...state, spent: true };
      case 'ScanStarted':
        return { ...state, status: 'running', worker_id: e.data.worker_id };
      case 'ScanPhaseEntered':
        return { ...state, phase: e.data.phase, progress: e.data.progress };
      case 'ProbeAttempted':
        return { ...state, progress: e.data.progress, attemptIds: [...state.attemptIds, e.data.attempt.attempt_id], findingsSoFar: Math.max(state.findingsSoFar ?? 0, e.data.findings_so_far ?? 0) };
      case 'VulnerabilityFound': {
        const v = e.data.vulnerability;
        const findings = { ...state.findings, [v.id]: v.fingerprint };
        return v.supersedes?.length ? { ...state, findings, supersedes: { ...state.supersedes, [v.id]: v.supersedes } } : { ...state, findings };
      }
      case 'ScanCompleted':
        return { ...state, status: 'completed', phase: 'done', progress: 100, score: e.data.score.overall_score };
      case 'ScanCompletedPartial':
        return { ...state, status: 'completed_partial', phase: 'done', progress: 100, score: e.data.score.overall_score };
      case 'ScanRegressed':
        return { ...state, regressions: [...(state.regressions ?? []), e.data.reason] };
      case 'OutOfBandHit': {
        const counts = state.hitsByToken ?? {};
        const address = plantedAddress(e.data.hit);
        return { ...state, hitsByToken: { ...counts, [address]: (counts[address] ?? 0) + 1 } };
      }
      case 'ScanFailed':
        return { ...state, status: 'failed', phase: 'done' };
      case 'ScanCancelled':
        return { ...state, status: 'cancelled', phase: 'done' };
      default:
        return state;
    }
  },
};

export const isTerminal = (status: ScanStatus) => TERMINAL_STATUSES.includes(status);

/** the share of the plan that ran (0..1, two decimals) at a progress of `progress` percent */
export const coverageAt = (progress: number): number => Math.round(Math.max(0, Math.min(100, progress))) / 100;

/**
 * The coverage of a partial scan as its ending event says it (pure upcast): version 2 records it;
 * version 1 did not, and the progress last recorded before it is the same fact (null: not known to
 * this reader).
 */
export function partialCoverage(data: { coverage?: number }, progressBefore: number | null): number | null {
  if (typeof data.coverage === 'number') return data.coverage;
  return progressBefore === null ? null : coverageAt(progressBefore);
}

/**
 * A grade as it may be shown: a partial scan's grade always carries the mark and the share of the
 * plan that ran (an A+ over a fifth of the plan is not an A+).
 */
export function gradeLabel(grade: string, scan: { partial: boolean; coverage: number | null }): string {
  if (!scan.partial) return grade;
  return scan.coverage === null ? `${grade} (partial scan)` : `${grade} (partial: ${Math.round(scan.coverage * 100)}% of the plan ran)`;
}
