import { findingHistory, type ProbeAttempt, type TriageDecision, type Vulnerability } from '@gauntlet/domain';
import { sampleHistory } from '../testing/sample-history';
import { buildScanReport } from './report-model';
import { scoreScan } from './scoring';
import { applyTriage, scoreAfterTriage, triageCounts } from './triage';

const at = '2026-11-21T10:00:00.000Z';
const finding = (id: string, probe_id: string, severity: Vulnerability['severity'], category = 'LLM01:2025'): Vulnerability =>
  ({ id, probe_id, category, category_name: 'Prompt Injection', severity, fingerprint: `${probe_id}:${category}`, variants: [] }) as unknown as Vulnerability;
const attempt = (i: number, probe_id: string, outcome: ProbeAttempt['verdict']['outcome'], category = 'LLM01:2025'): ProbeAttempt =>
  ({ attempt_id: `a${i}`, probe_id, category, technique: 't', converters: [], phase: 'probe', turns: [], verdict: { detector: 'd', outcome, matched: null, confidence: 1 }, latency_ms: 1 }) as ProbeAttempt;
const decision = (fingerprint: string, state: TriageDecision['state'], over: Partial<TriageDecision> = {}): TriageDecision => ({
  fingerprint, state, reason: 'why', by: 'account:a1', at, expires_at: null, scan_id: 's0', vulnerability_id: 'v', ...over,
});

describe('triage applied to a scan', () => {
  const vulns = [finding('v1', 'p1', 'critical'), finding('v2', 'p2', 'high'), finding('v3', 'p3', 'low')];
  const attempts = [attempt(1, 'p1', 'vulnerable'), attempt(2, 'p2', 'vulnerable'), attempt(3, 'p3', 'partial'), attempt(4, 'p4', 'resisted')];
  const recorded = scoreScan({ attempts, vulnerabilities: vulns });

  it('puts each decision on the finding with its fingerprint, and leaves the others open', () => {
    const triaged = applyTriage(vulns, [decision('p1:LLM01:2025', 'false_positive')], at, at);
    expect(triaged[0].triage).toEqual({ state: 'false_positive', reason: 'why', by: 'account:a1', at, expires_at: null });
    expect(triaged[1].triage).toBeUndefined();
    expect(triageCounts(triaged)).toEqual({ open: 2, false_positive: 1, accepted_risk: 0, fixed: 0 });
  });

  it('shows an expired acceptance as open, saying what was decided', () => {
    const triaged = applyTriage(vulns, [decision('p2:LLM01:2025', 'accepted_risk', { expires_at: '2026-11-22T00:00:00.000Z' })], at, '2026-11-23T00:00:00.000Z');
    expect(triaged[1].triage).toMatchObject({ state: 'open', decided_state: 'accepted_risk', lapsed: 'expired' });
  });

  it('with nothing triaged away the score after triage is the recorded one, whatever its version', () => {
    const old = { ...recorded, overall_score: 12, grade: 'F', scoring_version: '2026.11-1' };
    expect(scoreAfterTriage(old, attempts, applyTriage(vulns, [], at, at))).toBe(old);
  });

  it('leaves out triaged-away findings and counts their probes as resisted', () => {
    const triaged = applyTriage(vulns, [decision('p1:LLM01:2025', 'false_positive'), decision('p3:LLM01:2025', 'accepted_risk')], at, at);
    const after = scoreAfterTriage(recorded, attempts, triaged);
    // one high finding left, 1 of 4 probes got through
    expect(after).toEqual(scoreScan({ attempts: [attempt(2, 'p2', 'vulnerable'), attempt(4, 'p4', 'resisted'), attempt(1, 'p1', 'resisted'), attempt(3, 'p3', 'resisted')], vulnerabilities: [vulns[1]] }));
    expect(after).toMatchObject({ critical_count: 0, high_count: 1, low_count: 0 });
    expect(after.overall_score).toBeGreaterThan(recorded.overall_score);
    expect(recorded.critical_count).toBe(1); // the recorded score is not touched
  });
});

describe('the report with triage and changes', () => {
  const history = sampleHistory({ findings: 6, attempts: 40 });
  const ctx = { baseUrl: 'https://g.example', generatedAt: '2026-11-21T09:00:00.000Z' };

  it('without a base lookup it says nothing about changes; every finding is open', () => {
    const r = buildScanReport(history, ctx);
    expect(r.changes).toBeNull();
    expect(r.triage.counts.open).toBe(r.vulnerabilities.length);
    expect(r.triage.score_after_triage).toEqual(r.score);
  });

  it('compares with the base: new and still open findings, fixed ones with their titles', () => {
    const first = buildScanReport(history, ctx);
    const kept = first.vulnerabilities[0];
    const base = {
      scan_id: 'base-scan', finished_at: '2026-11-19T00:00:00.000Z', security_score: 50, security_grade: 'F',
      findings: [
        { fingerprint: kept.fingerprint, probe_id: kept.probe_id, title: kept.title, severity: kept.severity, category: kept.category },
        // its probe was sent again in this scan (sample probes are probe.<technique>) and did not get through: once is not a fix
        { fingerprint: 'probe.pirate:LLM99:2025', probe_id: 'probe.role_play', title: 'Missed once', severity: 'high' as const, category: 'LLM99:2025' },
        { fingerprint: 'never-sent:LLM03:2025', probe_id: 'never-sent', title: 'Not tried again', severity: 'low' as const, category: 'LLM03:2025' },
      ],
      // the scan before the base had a weakness the base missed too: gone twice in a row is fixed
      before_base_findings: [{ fingerprint: 'probe.role_play:LLM99:2025', probe_id: 'probe.role_play', title: 'Gone now', severity: 'high' as const, category: 'LLM99:2025' }],
    };
    Object.assign(base, { history: findingHistory([{ fingerprints: base.findings.map((f) => f.fingerprint) }, { fingerprints: ['probe.role_play:LLM99:2025'] }]) });
    const r = buildScanReport(history, { ...ctx, base });
    const sameFingerprint = r.vulnerabilities.filter((v) => v.fingerprint === kept.fingerprint);
    expect(r.changes!.still_open).toEqual(sameFingerprint.map((v) => v.id));
    expect(r.changes!.new).toHaveLength(r.vulnerabilities.length - sameFingerprint.length);
    for (const v of r.vulnerabilities) expect(v.change).toBe(v.fingerprint === kept.fingerprint ? 'still_open' : 'new');
    expect(r.changes!.fixed).toEqual(['probe.role_play:LLM99:2025']);
    expect(r.changes!.fixed_findings.map((f) => f.title)).toEqual(['Gone now']);
    expect(r.changes!.not_retested).toEqual(['never-sent:LLM03:2025']);
    expect(r.changes!.not_reproduced).toEqual(['probe.pirate:LLM99:2025']);
    expect(r.changes!.base).toEqual({ finished_at: '2026-11-19T00:00:00.000Z', security_score: 50, security_grade: 'F' });
  });

  it('a first scan has every finding new', () => {
    const r = buildScanReport(history, { ...ctx, base: null });
    expect(r.changes).toMatchObject({ base_scan_id: null, still_open: [], fixed: [] });
    expect(r.changes!.new).toHaveLength(r.vulnerabilities.length);
  });
});

describe('the report leaves the history as it was', () => {
  it('comparing with a base and applying triage changes no recorded event (the chain digest stays)', () => {
    const history = sampleHistory({ findings: 5, attempts: 20 });
    const before = JSON.stringify(history);
    const first = buildScanReport(history, { baseUrl: 'https://g.example', generatedAt: '2026-11-21T09:00:00.000Z' });
    const r = buildScanReport(history, {
      baseUrl: 'https://g.example', generatedAt: '2026-11-21T09:00:00.000Z', base: null,
      triage: [{ fingerprint: first.vulnerabilities[0].fingerprint, state: 'fixed', reason: 'r', by: 'a', at, expires_at: null, scan_id: 's', vulnerability_id: 'v' }],
    });
    expect(JSON.stringify(history)).toBe(before);
    expect(r.compliance.integrity.chain_sha256).toBe(first.compliance.integrity.chain_sha256);
  });
});
