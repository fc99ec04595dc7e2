import { Decider, DomainError } from '../decider';
import { DomainEvent, event } from '../events';
import type { TargetEvent } from '../target/target';

export const TRIAGE_STATES = ['open', 'false_positive', 'accepted_risk', 'fixed'] as const;
export type TriageState = (typeof TRIAGE_STATES)[number];
/** how each state reads to a person: the dashboard (through the API document) and every report say it so */
export const TRIAGE_STATE_LABELS: Readonly<Record<TriageState, string>> = { open: 'Open', false_positive: 'False positive', accepted_risk: 'Accepted risk', fixed: 'Fixed' };

/** Longest reason kept: a sentence or a ticket reference, not a document. */
export const MAX_TRIAGE_REASON = 2000;

/**
 * A person's decision about one weakness (a fingerprint) on one target. It lives on the target's
 * stream, not the scan's: it outlives the scan it was made on and applies to every later scan
 * that finds the same fingerprint.
 */
export interface TriageDecision {
  fingerprint: string;
  state: TriageState;
  reason: string;
  /** `account:<id>` or `apikey:<id>`: who decided */
  by: string;
  /** who decided as people read it (the account's e-mail, the API key's name): added by readers, never recorded */
  by_name?: string;
  /** when it was decided */
  at: string;
  /** accepted_risk only: when the acceptance lapses and the finding is open again */
  expires_at: string | null;
  /** where it was decided from (the finding the person was looking at) */
  scan_id: string;
  vulnerability_id: string;
}

export type TriageEvent = DomainEvent<'FindingTriaged', { target_id: string; account_id: string } & TriageDecision>;

export type TriageCommand = {
  type: 'TriageFinding';
  account_id: string;
  fingerprint: string;
  state: TriageState;
  reason: string;
  by: string;
  expires_at: string | null;
  scan_id: string;
  vulnerability_id: string;
  now: string;
};

export interface TriageStreamState {
  target_id: string | null;
  account_id: string | null;
  /** the latest decision per fingerprint */
  decisions: Record<string, TriageDecision>;
}

/**
 * Triage of a target's findings. It shares the target's stream (`target-<id>`) with the target
 * decider and reads only what it needs from it: whose target it is.
 */
export const triageDecider: Decider<TriageCommand, TriageEvent | TargetEvent, TriageStreamState> = {
  initialState: () => ({ target_id: null, account_id: null, decisions: {} }),

  decide(c, state) {
    // another account's target answers exactly like an absent one
    if (!state.target_id || state.account_id !== c.account_id) throw new DomainError('not_found', 'Target not found.');
    if (!TRIAGE_STATES.includes(c.state)) throw new DomainError('invalid', `state must be one of ${TRIAGE_STATES.join(', ')}.`, { field: 'state' });
    const reason = c.reason.trim();
    if (!reason) throw new DomainError('invalid', 'A reason is required: say why, for whoever reads this finding next.', { field: 'reason' });
    if (reason.length > MAX_TRIAGE_REASON) throw new DomainError('invalid', `reason is at most ${MAX_TRIAGE_REASON} characters.`, { field: 'reason' });
    if (c.expires_at !== null) {
      if (c.state !== 'accepted_risk') throw new DomainError('invalid', 'expires_at applies only to accepted_risk.', { field: 'expires_at' });
      if (Number.isNaN(Date.parse(c.expires_at))) throw new DomainError('invalid', 'expires_at must be an ISO 8601 date-time.', { field: 'expires_at' });
      if (Date.parse(c.expires_at) <= Date.parse(c.now)) throw new DomainError('invalid', 'expires_at must be in the future.', { field: 'expires_at' });
    }
    const prior = state.decisions[c.fingerprint];
    // the same decision again (a retried request) records nothing
    if (prior && prior.state === c.state && prior.reason === reason && prior.expires_at === c.expires_at && prior.by === c.by) return [];
    if (!prior && c.state === 'open') return []; // untriaged findings are open already
    return [
      event('FindingTriaged', {
        target_id: state.target_id, account_id: c.account_id, fingerprint: c.fingerprint, state: c.state, reason, by: c.by, at: c.now,
        expires_at: c.expires_at, scan_id: c.scan_id, vulnerability_id: c.vulnerability_id,
      }),
    ];
  },

  evolve(state, e) {
    switch (e.type) {
      case 'TargetRegistered':
        return { ...state, target_id: e.data.target_id, account_id: e.data.account_id };
      case 'FindingTriaged': {
        const { target_id: _t, account_id: _a, ...decision } = e.data;
        return { ...state, decisions: { ...state.decisions, [decision.fingerprint]: decision } };
      }
      default:
        return state;
    }
  },
};

/** The triage a finding shows, as of a moment. */
export interface EffectiveTriage extends TriageDecision {
  /** what the decision means for this finding now: an expired acceptance, or a fix that did not hold, is open */
  effective_state: TriageState;
  /** why the effective state differs from the decided one */
  lapsed?: 'expired' | 'found_again';
}

/**
 * What a recorded decision means for a finding of a given scan at a given moment (pure):
 * - an accepted risk whose expires_at has passed is open again;
 * - a weakness marked fixed and then found by a scan requested after that decision did not stay
 *   fixed: it is open in that scan (scans from before the decision still show it fixed);
 * - false positives and live acceptances carry over to every scan of the target.
 */
export function effectiveTriage(decision: TriageDecision | null | undefined, scanRequestedAt: string, now: string): EffectiveTriage | null {
  if (!decision) return null;
  if (decision.state === 'accepted_risk' && decision.expires_at && Date.parse(decision.expires_at) <= Date.parse(now)) {
    return { ...decision, effective_state: 'open', lapsed: 'expired' };
  }
  if (decision.state === 'fixed' && Date.parse(scanRequestedAt) > Date.parse(decision.at)) {
    return { ...decision, effective_state: 'open', lapsed: 'found_again' };
  }
  return { ...decision, effective_state: decision.state };
}

/**
 * The decision that applies to a finding (pure): the one made on its fingerprint; else, for a
 * finding that supersedes fingerprints of the probe-and-category kind (recorded before a finding
 * was a weakness), the decisions made on those, when they agree on the state (the latest of them);
 * when they disagree, none: the weakness is open until someone decides on it.
 */
export function decisionFor(finding: { fingerprint: string; supersedes?: readonly string[] }, decisions: ReadonlyMap<string, TriageDecision>): TriageDecision | undefined {
  const own = decisions.get(finding.fingerprint);
  if (own) return own;
  const earlier = (finding.supersedes ?? []).map((f) => decisions.get(f)).filter((d): d is TriageDecision => !!d);
  if (earlier.length === 0 || earlier.some((d) => d.state !== earlier[0].state)) return undefined;
  return earlier.reduce((a, b) => (b.at > a.at ? b : a));
}

/** Findings in these effective states no longer count against the target "after triage". */
export const isTriagedAway = (t: Pick<EffectiveTriage, 'effective_state'> | null | undefined): boolean => !!t && t.effective_state !== 'open';

/**
 * The triage a finding shows (the API's `triage {state, reason, by, at, expires_at}`): the
 * decision as of a moment, `state` being what holds now; what was decided shows only when it no
 * longer holds (an acceptance that expired, a fix the weakness came back after).
 */
export type FindingTriage = Pick<TriageDecision, 'reason' | 'by' | 'by_name' | 'at' | 'expires_at'> & {
  state: TriageState;
  decided_state?: TriageState;
  lapsed?: EffectiveTriage['lapsed'];
};

export const findingTriage = (t: EffectiveTriage): FindingTriage => ({
  state: t.effective_state,
  reason: t.reason,
  by: t.by,
  ...(t.by_name && { by_name: t.by_name }),
  at: t.at,
  expires_at: t.expires_at,
  ...(t.lapsed && { decided_state: t.state, lapsed: t.lapsed }),
});

/** What readers know of the actors a decision can name: e-mails by account id, names by API key id. */
export interface ActorDirectory {
  emails: ReadonlyMap<string, string>;
  apiKeys: ReadonlyMap<string, string>;
}

/** The ids of the accounts and API keys `actors` (`account:<id>`, `apikey:<id>`) name. */
export function actorIds(actors: Iterable<string>): { accounts: string[]; apiKeys: string[] } {
  const accounts = new Set<string>();
  const apiKeys = new Set<string>();
  for (const a of actors) {
    if (a.startsWith('account:')) accounts.add(a.slice('account:'.length));
    else if (a.startsWith('apikey:')) apiKeys.add(a.slice('apikey:'.length));
  }
  return { accounts: [...accounts], apiKeys: [...apiKeys] };
}

/**
 * Who an actor is, as a person reads it (pure): an account by its e-mail, an API key by its name
 * ("API key ci-pipeline"); anything unknown (a deleted key, `system`) as it was recorded.
 */
export function actorName(actor: string, directory: ActorDirectory): string {
  if (actor.startsWith('account:')) return directory.emails.get(actor.slice('account:'.length)) ?? actor;
  if (actor.startsWith('apikey:')) {
    const name = directory.apiKeys.get(actor.slice('apikey:'.length));
    return name ? `API key ${name}` : actor;
  }
  return actor;
}
