import { spec } from '@gauntlet/testing';
import { AgentAlert, MAX_REMEMBERED_SESSIONS, monitorDecider, MonitorEvent } from './monitor';

const now = '2026-11-21T10:00:00.000Z';
const configured: MonitorEvent = {
  type: 'AlertWebhookConfigured',
  schemaVersion: 1,
  data: { target_id: 't1', account_id: 'a1', url: 'https://siem.example.com/alerts', format_type: 'cef', min_severity: 'high', secret_encrypted: 'v1.s', configured_at: now },
};
const alert = (id: string): AgentAlert => ({ id, session_id: 's', kind: 'output', rule: 'canary-leak', severity: 'critical', detector: 'canary', matched: 'CANARY', occurred_at: now });
const raised = (id: string): MonitorEvent => ({ type: 'AgentAlertRaised', schemaVersion: 1, data: { account_id: 'a1', target_id: 't1', target_name: 'bot', alert: alert(id) } });

describe('monitor decider', () => {
  it('configures, reconfigures and removes the alert webhook of a target', () => {
    spec(monitorDecider)
      .given([])
      .when({ type: 'ConfigureAlertWebhook', target_id: 't1', account_id: 'a1', url: 'https://siem.example.com/alerts', format_type: 'cef', min_severity: 'high', secret_encrypted: 'v1.s', now })
      .then([configured]);
    spec(monitorDecider)
      .given([configured])
      .when({ type: 'RemoveAlertWebhook', account_id: 'a1', now })
      .then([{ type: 'AlertWebhookRemoved', schemaVersion: 1, data: { target_id: 't1', account_id: 'a1', removed_at: now } }]);
    spec(monitorDecider).given([]).when({ type: 'RemoveAlertWebhook', account_id: 'a1', now }).thenFails('not_found');
  });

  it("answers another account's monitor as not found", () => {
    spec(monitorDecider).given([configured]).when({ type: 'RemoveAlertWebhook', account_id: 'a2', now }).thenFails('not_found');
  });

  it('raises each alert once, even when an ingest is retried', () => {
    const cmd = { type: 'RaiseAgentAlerts' as const, account_id: 'a1', target_id: 't1', target_name: 'bot', alerts: [alert('x1'), alert('x2')], now };
    spec(monitorDecider).given([]).when(cmd).then([raised('x1'), raised('x2')]);
    spec(monitorDecider).given([raised('x1')]).when(cmd).then([raised('x2')]);
  });

  it('notes what is remembered of a session when it changed, once, and keeps the most recently noted sessions only', () => {
    const memory = { instructions: [{ kind: 'addressed-to-ai' }] };
    const noted = (session_id: string, m: Record<string, unknown> = memory): MonitorEvent => ({ type: 'AgentSessionNoted', schemaVersion: 1, data: { account_id: 'a1', target_id: 't1', session_id, memory: m, noted_at: now } });
    const cmd = { type: 'RaiseAgentAlerts' as const, account_id: 'a1', target_id: 't1', target_name: 'bot', alerts: [alert('x1')], sessions: [{ session_id: 's1', memory }], now };
    spec(monitorDecider).given([]).when(cmd).then([raised('x1'), noted('s1')]);
    // retried: the alert and the memory are known already
    spec(monitorDecider).given([raised('x1'), noted('s1')]).when(cmd).then([]);
    const state = [...Array(MAX_REMEMBERED_SESSIONS + 1).keys()].map((i) => noted(`s${i}`)).reduce(monitorDecider.evolve, monitorDecider.initialState());
    expect(state.sessions.size).toBe(MAX_REMEMBERED_SESSIONS);
    expect(state.sessions.has('s0')).toBe(false);
    expect(state.sessions.get(`s${MAX_REMEMBERED_SESSIONS}`)).toEqual(memory);
  });

  it('an alert webhook whose endpoint answered 410 Gone is disabled, once; configuring it again enables it', () => {
    const disabled: MonitorEvent = { type: 'AlertWebhookDisabled', schemaVersion: 1, data: { target_id: 't1', account_id: 'a1', reason: 'The endpoint answered 410 Gone.', disabled_at: now } };
    const disable = { type: 'DisableAlertWebhook' as const, reason: 'The endpoint answered 410 Gone.', now };
    spec(monitorDecider).given([configured]).when(disable).then([disabled]);
    spec(monitorDecider).given([configured, disabled]).when(disable).then([]);
    spec(monitorDecider).given([configured, disabled, configured]).when(disable).then([disabled]);
  });

  it('a removed or never configured alert webhook has nothing to disable', () => {
    const removed: MonitorEvent = { type: 'AlertWebhookRemoved', schemaVersion: 1, data: { target_id: 't1', account_id: 'a1', removed_at: now } };
    spec(monitorDecider).given([configured, removed]).when({ type: 'DisableAlertWebhook', reason: 'gone', now }).then([]);
    spec(monitorDecider).given([]).when({ type: 'DisableAlertWebhook', reason: 'gone', now }).then([]);
  });
  it('records each alert delivery dropped after its last retry, once, even after the webhook was removed', () => {
    const record = { type: 'RecordAlertDeliveryDropped' as const, delivery_id: 'd1', event: 'agent.alert', attempts: 4, last_error: 'HTTP 500', now };
    const dropped: MonitorEvent = {
      type: 'AlertDeliveryDropped', schemaVersion: 1,
      data: { target_id: 't1', account_id: 'a1', delivery_id: 'd1', event: 'agent.alert', attempts: 4, last_error: 'HTTP 500', dropped_at: now },
    };
    const removed: MonitorEvent = { type: 'AlertWebhookRemoved', schemaVersion: 1, data: { target_id: 't1', account_id: 'a1', removed_at: now } };
    spec(monitorDecider).given([configured, raised('x1')]).when(record).then([dropped]);
    spec(monitorDecider).given([configured, raised('x1'), removed]).when(record).then([dropped]);
    spec(monitorDecider).given([configured, dropped]).when(record).then([]);
    spec(monitorDecider).given([]).when(record).then([]); // no monitor on that stream: nothing to record it on
  });
});
