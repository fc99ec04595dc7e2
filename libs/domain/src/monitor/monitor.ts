import { Decider, DomainError } from '../decider';
import { DomainEvent, event } from '../events';
import type { Severity } from '../scan/vulnerability';
import type { FormatType } from '../webhook/webhook';

export const AGENT_EVENT_KINDS = ['input', 'output', 'tool_call'] as const;
export type AgentEventKind = (typeof AGENT_EVENT_KINDS)[number];

/** One judgement of the Live Agent Monitor on one event of a deployed agent's traffic. */
export interface AgentAlert {
  id: string;
  session_id: string;
  kind: AgentEventKind;
  rule: string;
  severity: Severity;
  detector: string;
  matched: string | null;
  occurred_at: string;
}

/** Most alerts one ingest call may raise: a flood is summarised, not recorded one by one. */
export const MAX_ALERTS_PER_BATCH = 500;

/**
 * What the monitor remembers of one session between batches, so the session is judged as a whole:
 * the instructions tool results carried and the values the agent was given, as digests (never the
 * values), bounded by the judge that writes it (libs/scanner, judge/session.ts). Opaque here.
 */
export type AgentSessionMemory = Record<string, unknown>;
/** Sessions whose memory a target's monitor keeps: the least recently noted is forgotten first. */
export const MAX_REMEMBERED_SESSIONS = 1_000;

export type MonitorEvent =
  | DomainEvent<'AlertWebhookConfigured', {
      target_id: string; account_id: string; url: string; format_type: FormatType; min_severity: Severity;
      secret_encrypted: string; configured_at: string;
    }>
  | DomainEvent<'AlertWebhookRemoved', { target_id: string; account_id: string; removed_at: string }>
  /** its endpoint answered 410 Gone: no more deliveries until it is configured again */
  | DomainEvent<'AlertWebhookDisabled', { target_id: string; account_id: string; reason: string; disabled_at: string }>
  /** an alert that never reached the endpoint after every retry: the auditable record of a lost alert */
  | DomainEvent<'AlertDeliveryDropped', { target_id: string; account_id: string; delivery_id: string; event: string; attempts: number; last_error: string | null; dropped_at: string }>
  | DomainEvent<'AgentAlertRaised', { account_id: string; target_id: string; target_name: string; alert: AgentAlert }>
  /** what the judge remembers of a session after a batch (it replaces what was remembered before) */
  | DomainEvent<'AgentSessionNoted', { account_id: string; target_id: string; session_id: string; memory: AgentSessionMemory; noted_at: string }>;

export type MonitorCommand =
  | { type: 'ConfigureAlertWebhook'; target_id: string; account_id: string; url: string; format_type: FormatType; min_severity: Severity; secret_encrypted: string; now: string }
  | { type: 'RemoveAlertWebhook'; account_id: string; now: string }
  /** from the deliveries, not a user: it names no account */
  | { type: 'DisableAlertWebhook'; reason: string; now: string }
  /** from the deliveries too */
  | { type: 'RecordAlertDeliveryDropped'; delivery_id: string; event: string; attempts: number; last_error: string | null; now: string }
  /** a batch judged: its alerts, and what is remembered of the sessions it changed */
  | { type: 'RaiseAgentAlerts'; account_id: string; target_id: string; target_name: string; alerts: AgentAlert[]; sessions?: { session_id: string; memory: AgentSessionMemory }[]; now: string };

export interface MonitorState {
  target_id: string | null;
  account_id: string | null;
  webhookConfigured: boolean;
  webhookEnabled: boolean;
  alertIds: Set<string>;
  droppedDeliveries: Set<string>;
  /** each remembered session's memory, the least recently noted first */
  sessions: Map<string, AgentSessionMemory>;
}

export const monitorDecider: Decider<MonitorCommand, MonitorEvent, MonitorState> = {
  initialState: () => ({ target_id: null, account_id: null, webhookConfigured: false, webhookEnabled: false, alertIds: new Set(), droppedDeliveries: new Set(), sessions: new Map() }),

  decide(command, state) {
    if (command.type === 'DisableAlertWebhook') {
      // the webhook it was meant for may have been removed or replaced meanwhile: nothing to disable
      if (!state.webhookConfigured || !state.webhookEnabled) return [];
      return [event('AlertWebhookDisabled', { target_id: state.target_id!, account_id: state.account_id!, reason: command.reason, disabled_at: command.now })];
    }
    if (command.type === 'RecordAlertDeliveryDropped') {
      // recorded even when the webhook was removed or replaced meanwhile: the alert was lost all the same
      if (!state.target_id || state.droppedDeliveries.has(command.delivery_id)) return [];
      const { type: _t, now, ...data } = command;
      return [event('AlertDeliveryDropped', { target_id: state.target_id, account_id: state.account_id!, ...data, dropped_at: now })];
    }
    if (state.account_id && state.account_id !== command.account_id) throw new DomainError('not_found', 'Target not found.');
    switch (command.type) {
      case 'ConfigureAlertWebhook': {
        const { type: _t, now, ...data } = command;
        return [event('AlertWebhookConfigured', { ...data, configured_at: now })];
      }
      case 'RemoveAlertWebhook':
        if (!state.webhookConfigured) throw new DomainError('not_found', 'No alert webhook is configured for this target.');
        return [event('AlertWebhookRemoved', { target_id: state.target_id!, account_id: command.account_id, removed_at: command.now })];
      case 'RaiseAgentAlerts': {
        if (command.alerts.length > MAX_ALERTS_PER_BATCH) throw new DomainError('invalid', `At most ${MAX_ALERTS_PER_BATCH} alerts per batch.`);
        const { account_id, target_id } = command;
        // a session's memory is noted when it changed (a retried batch changes nothing)
        const noted = (command.sessions ?? [])
          .filter((s) => JSON.stringify(state.sessions.get(s.session_id)) !== JSON.stringify(s.memory))
          .map((s) => event('AgentSessionNoted', { account_id, target_id, session_id: s.session_id, memory: s.memory, noted_at: command.now }));
        return [
          ...command.alerts
            .filter((a) => !state.alertIds.has(a.id)) // a retried ingest raises nothing twice
            .map((alert) => event('AgentAlertRaised', { account_id, target_id, target_name: command.target_name, alert })),
          ...noted,
        ];
      }
    }
  },

  evolve(state, e) {
    switch (e.type) {
      case 'AlertWebhookConfigured':
        return { ...state, target_id: e.data.target_id, account_id: e.data.account_id, webhookConfigured: true, webhookEnabled: true };
      case 'AlertWebhookRemoved':
        return { ...state, webhookConfigured: false, webhookEnabled: false };
      case 'AlertWebhookDisabled':
        return { ...state, webhookEnabled: false };
      case 'AlertDeliveryDropped': {
        const droppedDeliveries = new Set(state.droppedDeliveries);
        droppedDeliveries.add(e.data.delivery_id);
        return { ...state, droppedDeliveries };
      }
      case 'AgentSessionNoted': {
        const sessions = new Map(state.sessions);
        // the least recently noted first: noting a session again moves it last
        sessions.delete(e.data.session_id);
        sessions.set(e.data.session_id, e.data.memory);
        while (sessions.size > MAX_REMEMBERED_SESSIONS) sessions.delete(sessions.keys().next().value as string);
        return { ...state, target_id: e.data.target_id, account_id: e.data.account_id, sessions };
      }
      case 'AgentAlertRaised': {
        const alertIds = new Set(state.alertIds);
        alertIds.add(e.data.alert.id);
        return { ...state, target_id: e.data.target_id, account_id: e.data.account_id, alertIds };
      }
      default:
        return state;
    }
  },
};
