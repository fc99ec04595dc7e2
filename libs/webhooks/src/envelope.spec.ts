import { evolveScanSummary, type ScanScore, type ScanSummaryState, type Vulnerability } from '@gauntlet/domain';
import { sampleOutOfBandFinding, sampleToolCallFinding } from '../../assessment/testing/sample-history';
import { envelopeId, pingEnvelope, shownGrade, toWebhookEvents, type ScanEventData, type ScanSummary, type SourceEvent } from './envelope';
import { render } from './formats';

const summary: ScanSummary = {
  scan_id: 's-1', account_id: 'a-1', target_id: 't-1', target_name: 'Support bot', status: 'running',
  critical: 1, high: 2, medium: 0, low: 3, started_at: '2026-11-20T10:00:00.000Z', base_url: 'https://g.example.com/',
};
const at = (type: string, data: unknown, revision = 3): SourceEvent => ({ streamId: 'scan-s-1', revision, type, data, recordedAt: '2026-11-20T10:09:09.000Z' });
const score: ScanScore = { overall_score: 71, grade: 'C+', category_scores: {}, critical_count: 1, high_count: 2, medium_count: 4, low_count: 3, scoring_version: '1' };
const vuln = (severity: Vulnerability['severity']): Vulnerability => ({
  id: 'v1', probe_id: 'p.injection', category: 'LLM01:2025', category_name: 'Prompt Injection', title: 'Ignores system prompt', severity, confidence: 0.9,
  technique: 't', converters: [], description: 'd', evidence: { turns: [], detector: 'x', matched: null }, remediation: 'r', references: [], phase: 'probe', found_at: '2026-11-20T10:03:00.000Z', fingerprint: 'p.injection:LLM01:2025', variants: [], how: 'Sent as written.', probes: [], conversations: 1, attempt_ids: [], supersedes: [], exposures: [],
});

describe('toWebhookEvents', () => {
  it('maps ScanStarted to scan.started with the counts so far and no score yet', () => {
    const [e] = toWebhookEvents(at('ScanStarted', { scan_id: 's-1', worker_id: 'w', started_at: '2026-11-20T10:00:00.000Z' }), summary);
    expect(e).toEqual({
      id: envelopeId('scan-s-1', 3, 'scan.started'), event: 'scan.started', timestamp: '2026-11-20T10:00:00.000Z',
      data: {
        scan_id: 's-1', target_id: 't-1', target_name: 'Support bot', status: 'running', security_score: null, security_grade: null,
        total_findings: 6, critical: 1, high: 2, medium: 0, low: 3, report_url: 'https://g.example.com/api/scans/s-1/report',
        started_at: '2026-11-20T10:00:00.000Z', finished_at: null,
      },
    });
  });

  it('maps a recorded ScanRegressed to scan.regressed with the contract fields', () => {
    const [e] = toWebhookEvents(
      at('ScanRegressed', { scan_id: 's-1', target_id: 't-1', detected_at: '2026-11-20T10:07:01.000Z', reason: 'found_again', fingerprints: ['fp-1'], score: 60, previous_score: 80 }),
      { ...summary, status: 'completed' },
    );
    expect(e).toMatchObject({ event: 'scan.regressed', id: envelopeId('scan-s-1', 3, 'scan.regressed'), timestamp: '2026-11-20T10:07:01.000Z' });
    expect(e.data).toMatchObject({ scan_id: 's-1', target_id: 't-1', reason: 'found_again', fingerprints: ['fp-1'], score: 60, previous_score: 80, security_score: 60 });
  });

  it('takes the score and counts of scan.completed from the recorded score', () => {
    const [e] = toWebhookEvents(at('ScanCompleted', { scan_id: 's-1', score, finished_at: '2026-11-20T10:07:00.000Z' }), summary);
    expect(e.event).toBe('scan.completed');
    expect(e.timestamp).toBe('2026-11-20T10:07:00.000Z');
    expect(e.data).toMatchObject({ status: 'completed', security_score: 71, security_grade: 'C+', total_findings: 10, critical: 1, high: 2, medium: 4, low: 3, finished_at: '2026-11-20T10:07:00.000Z' });
  });

  it('scan.completed says how many findings are new since the previous scan of the target', () => {
    const [e] = toWebhookEvents(at('ScanCompleted', { scan_id: 's-1', score, finished_at: '2026-11-20T10:07:00.000Z' }), { ...summary, changes: { base_scan_id: 's-0', new_findings: 2 } });
    expect(e.data).toMatchObject({ new_findings: 2, base_scan_id: 's-0', total_findings: 10 });
    const [started] = toWebhookEvents(at('ScanStarted', { scan_id: 's-1', started_at: '2026-11-20T10:00:00.000Z' }), summary);
    expect(started.data).not.toHaveProperty('new_findings');
  });

  it('vulnerability.critical carries what proves it: the kind, the tool and its arguments (one bounded line), or the request that came back', () => {
    const long = sampleToolCallFinding();
    long.evidence.proof!.matched.arguments = { to: 'a@evil.example', body: 'x'.repeat(5000) };
    const [call] = toWebhookEvents(at('VulnerabilityFound', { scan_id: 's-1', vulnerability: long }), summary);
    const proof = (call.data as ScanEventData).vulnerability!.proof!;
    expect(proof).toMatchObject({ kind: 'tool_call', tool: 'send_payment' });
    expect(proof.arguments!.startsWith('to="a@evil.example", body="xxx')).toBe(true);
    expect(proof.arguments!.length).toBeLessThanOrEqual(300);
    expect(proof.shows).toBe(`the agent called send_payment with ${proof.arguments}`);
    const [hit] = toWebhookEvents(at('VulnerabilityFound', { scan_id: 's-1', vulnerability: sampleOutOfBandFinding() }), summary);
    expect((hit.data as ScanEventData).vulnerability!.proof).toEqual({
      kind: 'out_of_band', method: 'GET', path: '/oob/7f3a9c/c', query: 'd=Jane%20Doe', at: '2026-11-20T10:00:07.120Z',
      shows: 'a request reached the planted address: GET /oob/7f3a9c/c?d=Jane%20Doe at 2026-11-20T10:00:07.120Z',
    });
    // a finding recorded before proofs existed carries none
    const [old] = toWebhookEvents(at('VulnerabilityFound', { scan_id: 's-1', vulnerability: vuln('critical') }), summary);
    expect((old.data as ScanEventData).vulnerability).not.toHaveProperty('proof');
  });

  it('given findings proven by a call and a hit, when the scan completes, then the event counts its findings by what proves them', () => {
    let s: ScanSummaryState | null = evolveScanSummary(null, { type: 'ScanRequested', data: { account_id: 'a-1', target_id: 't-1', target_name: 'Agent', requested_at: '2026-11-20T10:00:00.000Z' } });
    for (const v of [sampleToolCallFinding(), sampleOutOfBandFinding(), sampleToolCallFinding({ id: 'v-2', fingerprint: 'other' }), vuln('low')]) s = evolveScanSummary(s, { type: 'VulnerabilityFound', data: { vulnerability: v } }) ?? s;
    expect(s!.proofs).toEqual({ tool_call: 2, out_of_band: 1 });
    const [e] = toWebhookEvents(at('ScanCompleted', { scan_id: 's-1', score, finished_at: '2026-11-20T10:07:00.000Z' }), { ...summary, proofs: s!.proofs });
    expect(e.data).toMatchObject({ findings_by_proof: { tool_call: 2, out_of_band: 1 } });
    const [plain] = toWebhookEvents(at('ScanStarted', { scan_id: 's-1', started_at: '2026-11-20T10:00:00.000Z' }), summary);
    expect(plain.data).not.toHaveProperty('findings_by_proof');
  });

  it('given findings that exposed values, when the scan completes, then the event lists what leaked once, credentials first; a scan that leaked nothing says nothing of it', () => {
    const exposure = (kind: 'credential' | 'personal', label: string, first_seen: string) => ({ kind, source: 'sensitive' as const, label, shown: `${label[0]}***`, whole: true, conversations: 2, probes: ['sid-001'], first_seen, via: ['answer' as const], rotate: kind === 'credential' });
    let s: ScanSummaryState | null = evolveScanSummary(null, { type: 'ScanRequested', data: { account_id: 'a-1', target_id: 't-1', target_name: 'Clinic', requested_at: '2026-11-20T10:00:00.000Z' } });
    const person = { ...vuln('critical'), id: 'v-person', fingerprint: 'LLM02:2025:person:h1', exposures: [exposure('personal', 'patient name', '2026-11-20T10:01:00.000Z')] };
    const url = { ...vuln('critical'), id: 'v-url', fingerprint: 'LLM02:2025:value:h2', exposures: [exposure('credential', 'records database URL', '2026-11-20T10:02:00.000Z')] };
    for (const v of [person, url, url]) s = evolveScanSummary(s, { type: 'VulnerabilityFound', data: { vulnerability: v } }) ?? s;
    const [e] = toWebhookEvents(at('ScanCompleted', { scan_id: 's-1', score, finished_at: '2026-11-20T10:07:00.000Z' }), { ...summary, exposures: s!.exposures });
    expect((e.data as ScanEventData).exposures?.map((x) => [x.label, x.vulnerability_id, x.rotate])).toEqual([['records database URL', 'v-url', true], ['patient name', 'v-person', false]]);
    const [clean] = toWebhookEvents(at('ScanCompleted', { scan_id: 's-1', score, finished_at: '2026-11-20T10:07:00.000Z' }), summary);
    expect(clean.data).not.toHaveProperty('exposures');
  });

  it('maps partial and failed scans with their reasons', () => {
    const [p] = toWebhookEvents(at('ScanCompletedPartial', { scan_id: 's-1', reason: 'agent disconnected', score, finished_at: '2026-11-20T10:08:00.000Z' }), summary);
    expect(p).toMatchObject({ event: 'scan.completed_partial', data: { status: 'completed_partial', security_score: 71, reason: 'agent disconnected' } });
    const [f] = toWebhookEvents(at('ScanFailed', { scan_id: 's-1', reason: 'never answered', finished_at: '2026-11-20T10:01:00.000Z' }), summary);
    expect(f).toMatchObject({ event: 'scan.failed', data: { status: 'failed', security_score: null, reason: 'never answered', total_findings: 6 } });
  });

  it('a partial scan says so and what share of its plan ran, in json, OCSF, CEF and syslog, its grade never without the mark', () => {
    const [p] = toWebhookEvents(at('ScanCompletedPartial', { scan_id: 's-1', reason: 'agent disconnected', score, finished_at: '2026-11-20T10:08:00.000Z', coverage: 0.21 }), summary);
    expect(p.data).toMatchObject({ partial: true, coverage: 0.21, security_grade: 'C+' });
    expect(shownGrade(p.data as ScanEventData)).toBe('C+ (partial: 21% of the plan ran)');
    const renderBody = (format: 'ocsf' | 'cef' | 'syslog') => render(p, format, { productVersion: '1.0.0' }).body;
    const ocsf = JSON.parse(renderBody('ocsf'));
    expect(ocsf.unmapped).toMatchObject({ partial: true, coverage: 0.21 });
    expect(ocsf.message).toContain('C+ (partial: 21% of the plan ran)');
    const cef = renderBody('cef');
    expect(cef).toContain('flexString1=partial flexString1Label=scanCoverage flexNumber2=21 flexNumber2Label=coveragePercent');
    expect(cef).toContain('cs4=C+ (partial: 21% of the plan ran)');
    const syslog = renderBody('syslog');
    expect(syslog).toContain('partial="true" coverage="0.21"');
    expect(syslog).toContain('C+ (partial: 21% of the plan ran)');
    // a version 1 ending recorded no coverage: partial, share unknown
    const [old] = toWebhookEvents(at('ScanCompletedPartial', { scan_id: 's-1', reason: 'agent disconnected', score, finished_at: '2026-11-20T10:08:00.000Z' }), summary);
    expect(old.data).toMatchObject({ partial: true, coverage: null });
    const [whole] = toWebhookEvents(at('ScanCompleted', { scan_id: 's-1', score, finished_at: '2026-11-20T10:07:00.000Z' }), summary);
    expect(whole.data).toMatchObject({ partial: false, coverage: 1 });
  });

  it('raises vulnerability.critical only for critical findings, with the finding attached', () => {
    expect(toWebhookEvents(at('VulnerabilityFound', { scan_id: 's-1', vulnerability: vuln('high') }), summary)).toEqual([]);
    const [e] = toWebhookEvents(at('VulnerabilityFound', { scan_id: 's-1', vulnerability: vuln('critical') }), summary);
    expect(e.event).toBe('vulnerability.critical');
    expect(e.timestamp).toBe('2026-11-20T10:03:00.000Z');
    expect((e.data as any).vulnerability).toEqual({ id: 'v1', title: 'Ignores system prompt', category: 'LLM01:2025', category_name: 'Prompt Injection', severity: 'critical', probe_id: 'p.injection' });
  });

  it('has no event for cancelled scans or for other domain events', () => {
    expect(toWebhookEvents(at('ScanCancelled', { scan_id: 's-1', cancelled_by: 'u', finished_at: 'x' }), summary)).toEqual([]);
    expect(toWebhookEvents(at('ScanPhaseEntered', { scan_id: 's-1', phase: 'probe', progress: 5 }), summary)).toEqual([]);
    expect(toWebhookEvents(at('ScanStarted', { scan_id: 's-1' }), null)).toEqual([]);
  });

  it('maps AgentAlertRaised to agent.alert without a scan', () => {
    const alert = { id: 'al1', session_id: 's', kind: 'output', rule: 'canary-leak', severity: 'high', detector: 'canary', matched: 'X', occurred_at: '2026-11-20T11:00:00.000Z' };
    const [e] = toWebhookEvents({ streamId: 'monitor-t-1', revision: 4, type: 'AgentAlertRaised', data: { account_id: 'a-1', target_id: 't-1', target_name: 'bot', alert }, recordedAt: 'x' }, null);
    expect(e).toEqual({ id: envelopeId('monitor-t-1', 4, 'agent.alert'), event: 'agent.alert', timestamp: '2026-11-20T11:00:00.000Z', data: { target_id: 't-1', target_name: 'bot', alert } });
  });

  it('derives a stable id from the source event, so a redelivered event makes the same envelope id', () => {
    const e = at('ScanStarted', { scan_id: 's-1', started_at: '2026-11-20T10:00:00.000Z' });
    expect(toWebhookEvents(e, summary)[0].id).toBe(toWebhookEvents({ ...e }, { ...summary, critical: 9 })[0].id);
    expect(toWebhookEvents(e, summary)[0].id).not.toBe(toWebhookEvents({ ...e, revision: 4 }, summary)[0].id);
    expect(envelopeId('scan-s-1', 3, 'scan.started')).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it('makes a distinct ping per call', () => {
    const a = pingEnvelope('wh', new Date('2026-01-01T00:00:00Z'), 'n1');
    expect(a).toMatchObject({ event: 'ping', timestamp: '2026-01-01T00:00:00.000Z', data: { webhook_id: 'wh' } });
    expect(pingEnvelope('wh', new Date('2026-01-01T00:00:00Z'), 'n2').id).not.toBe(a.id);
  });
});
