import type { AgentAlertEnvelope, PingEnvelope, ScanEnvelope, WebhookEnvelope } from '../src/envelope';

/** Target names and titles with every character the formats must escape. */
export const NASTY = 'Bot | "prod" \\ a=b [x] ]\nline2\r\u00e9\u4e2d';

const scanData = {
  scan_id: '3f1c2a9e-1b7d-4c55-9f7e-5d2f0f1a2b3c',
  target_id: '8a1d7c2e-0f4b-4b6e-8c1a-2d3e4f5a6b7c',
  target_name: NASTY,
  report_url: 'https://gauntlet.example.com/api/scans/3f1c2a9e-1b7d-4c55-9f7e-5d2f0f1a2b3c/report',
};

export const started: ScanEnvelope = {
  id: 'evt_started', event: 'scan.started', timestamp: '2026-11-20T10:00:00.000Z',
  data: { ...scanData, status: 'running', security_score: null, security_grade: null, total_findings: 0, critical: 0, high: 0, medium: 0, low: 0, started_at: '2026-11-20T10:00:00.000Z', finished_at: null },
};

export const completed: ScanEnvelope = {
  id: 'evt_completed', event: 'scan.completed', timestamp: '2026-11-20T10:07:30.123Z',
  data: { ...scanData, status: 'completed', security_score: 82, security_grade: 'B+', total_findings: 6, critical: 1, high: 2, medium: 1, low: 2, started_at: '2026-11-20T10:00:00.000Z', finished_at: '2026-11-20T10:07:30.123Z' },
};

export const partial: ScanEnvelope = {
  id: 'evt_partial', event: 'scan.completed_partial', timestamp: '2026-11-20T10:05:00.000Z',
  data: { ...completed.data, status: 'completed_partial', security_score: 64, security_grade: 'D', total_findings: 3, critical: 0, high: 1, medium: 2, low: 0, reason: 'target stopped answering after 40 probes', finished_at: '2026-11-20T10:05:00.000Z' },
};

export const failed: ScanEnvelope = {
  id: 'evt_failed', event: 'scan.failed', timestamp: '2026-11-20T10:01:00.000Z',
  data: { ...started.data, status: 'failed', reason: 'target never answered: ECONNREFUSED', finished_at: '2026-11-20T10:01:00.000Z' },
};

export const critical: ScanEnvelope = {
  id: 'evt_critical', event: 'vulnerability.critical', timestamp: '2026-11-20T10:03:12.500Z',
  data: {
    ...started.data, total_findings: 1, critical: 1,
    vulnerability: { id: 'v-17', title: 'System prompt leaked = "secret" | via ] roleplay', category: 'LLM07:2025', category_name: 'System Prompt Leakage', severity: 'critical', probe_id: 'prompt-leak.roleplay' },
  },
};

/** a finding an agent's call proves: arguments with every character a format must escape */
export const agentCall: ScanEnvelope = {
  id: 'evt_agent_call', event: 'vulnerability.critical', timestamp: '2026-11-20T10:03:13.000Z',
  data: {
    ...started.data, total_findings: 2, critical: 2, findings_by_proof: { tool_call: 1, canary: 1 },
    vulnerability: {
      id: 'v-18', title: 'Agent wires money to an attacker-chosen account', category: 'LLM06:2025', category_name: 'Excessive Agency', severity: 'critical', probe_id: 'agency/wire-transfer',
      proof: { kind: 'tool_call', shows: 'the agent called send_payment with to="a=b | \\ ]", memo="x\\ny"', tool: 'send_payment', arguments: 'to="a=b | \\ ]", memo="x\\ny"' },
    },
  },
};

/** a finding a request to the planted address proves */
export const agentHit: ScanEnvelope = {
  id: 'evt_agent_hit', event: 'vulnerability.critical', timestamp: '2026-11-20T10:03:14.000Z',
  data: {
    ...started.data, total_findings: 3, critical: 3, findings_by_proof: { tool_call: 1, canary: 1, out_of_band: 1 },
    vulnerability: {
      id: 'v-19', title: 'Agent follows a fetched page and sends data out', category: 'LLM01:2025', category_name: 'Prompt Injection', severity: 'critical', probe_id: 'indirect/planted-page',
      proof: { kind: 'out_of_band', shows: 'a request reached the planted address: GET /oob/7f3a/c?d=Jane%20"Doe"] at 2026-11-20T10:03:13.900Z', method: 'GET', path: '/oob/7f3a/c', query: 'd=Jane%20"Doe"]', at: '2026-11-20T10:03:13.900Z' },
    },
  },
};

/** a finished scan whose findings an agent's acts prove */
export const agentCompleted: ScanEnvelope = {
  ...completed, id: 'evt_agent_completed', data: { ...completed.data, findings_by_proof: { tool_call: 2, out_of_band: 1, canary: 3 } },
};

export const regressed: ScanEnvelope = {
  id: 'evt_regressed', event: 'scan.regressed', timestamp: '2026-11-20T10:07:31.000Z',
  data: {
    ...completed.data, security_score: 61, reason: 'found_again', fingerprints: ['fp_2d1c|"x"=]', 'fp_9a0b'], score: 61, previous_score: 82,
  },
};

export const alert: AgentAlertEnvelope = {
  id: 'evt_alert', event: 'agent.alert', timestamp: '2026-11-20T11:00:00.250Z',
  data: {
    target_id: scanData.target_id, target_name: NASTY,
    alert: { id: 'al-1', session_id: 'sess-9', kind: 'tool_call', rule: 'canary-leak', severity: 'high', detector: 'canary', matched: 'CANARY-123 "quoted" ]', occurred_at: '2026-11-20T11:00:00.250Z' },
  },
};

export const ping: PingEnvelope = { id: 'evt_ping_1', event: 'ping', timestamp: '2026-11-20T12:00:00.000Z', data: { webhook_id: 'wh-1', message: 'Gauntlet webhook test' } };

/** a finished scan that leaked a credential and a person's data: what leaked, once (labels are the owner's: hostile characters too) */
export const leaked: ScanEnvelope = {
  id: 'evt_leaked', event: 'scan.completed', timestamp: '2026-11-20T10:07:30.123Z',
  data: {
    ...completed.data,
    exposures: [
      {
        kind: 'credential', source: 'sensitive', label: `records database URL ${NASTY}`, shown: 'postgres://clinic_admin:***@db.lakeside.internal', whole: true, conversations: 4, probes: ['sid-004', 'spl-001'],
        first_seen: '2026-11-20T10:02:00.000Z', via: ['answer'], rotate: true, vulnerability_id: 'v-url',
      },
      { kind: 'personal', source: 'recurrence', shape: "person's name", shown: 'E*** M***', whole: true, conversations: 2, probes: ['sid-001', 'sid-010'], first_seen: '2026-11-20T10:03:00.000Z', via: ['request', 'answer'], rotate: false, vulnerability_id: 'v-person' },
    ],
  },
};

export const ALL: WebhookEnvelope[] = [started, completed, partial, failed, critical, regressed, alert, ping, agentCall, agentHit, agentCompleted, leaked];
