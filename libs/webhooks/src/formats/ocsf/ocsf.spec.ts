import { agentCall, agentCompleted, agentHit, alert, ALL, completed, critical, failed, leaked, partial, ping, regressed, started } from '../../../test/fixtures';
import { ocsfErrors } from './validate';
import { renderOcsf } from './ocsf';

const product = { name: 'Gauntlet', vendor_name: 'Gauntlet', version: '0.1.0' };
const read = (e: Parameters<typeof renderOcsf>[0]) => JSON.parse(renderOcsf(e, product));

describe('ocsf format (OCSF 1.8.0)', () => {
  it.each(ALL.map((e) => [e.event, e] as const))('%s validates against the schema derived from ocsf-schema 1.8.0', (_n, e) => {
    const o = read(e);
    expect(ocsfErrors(o)).toEqual([]);
    expect(o.type_uid).toBe(o.class_uid * 100 + o.activity_id);
    expect(o.time).toBe(Date.parse(e.timestamp));
    expect(o.metadata).toMatchObject({ product, version: '1.8.0', uid: e.id });
  });

  it('maps the scan events to Scan Activity 6007 with activity 1 Started / 2 Completed / 6 Error', () => {
    const s = read(started);
    expect(s).toMatchObject({ class_uid: 6007, category_uid: 6, activity_id: 1, type_uid: 600701, status_id: 1, severity_id: 1, num_detections: 0, start_time: Date.parse('2026-11-20T10:00:00.000Z') });
    expect(s.scan).toEqual({ type_id: 99, type: 'AI adversarial security scan', name: `Gauntlet scan of ${started.data.target_name}`, uid: started.data.scan_id });
    expect(s.end_time).toBeUndefined();

    const c = read(completed);
    expect(c).toMatchObject({ class_uid: 6007, activity_id: 2, type_uid: 600702, status_id: 1, status: 'Success', severity_id: 5, num_detections: 6 });
    expect(c.start_time).toBe(Date.parse(completed.data.started_at!));
    expect(c.end_time).toBe(Date.parse(completed.data.finished_at!));
    expect(c.unmapped).toEqual({
      target_id: completed.data.target_id, target_name: completed.data.target_name, security_score: 82, security_grade: 'B+',
      critical: 1, high: 2, medium: 1, low: 2, report_url: completed.data.report_url,
    });
    expect(c.metadata.correlation_uid).toBe(completed.data.scan_id);

    expect(read(partial)).toMatchObject({ activity_id: 2, type_uid: 600702, status_id: 99, status: 'Partial', status_detail: partial.data.reason, severity_id: 4 });
    expect(read(failed)).toMatchObject({ activity_id: 6, type_uid: 600706, status_id: 2, status: 'Failure', status_detail: failed.data.reason });
  });

  it('a scan that leaked: what leaked right after the score in the message, each value whole in unmapped.exposures', () => {
    const o = read(leaked);
    expect(o.message).toMatch(/, score 82 \(B\+\)\. Leaked 2 values the target holds; rotate 1 credential: /);
    expect(o.unmapped.exposures).toEqual(leaked.data.exposures);
    expect(read(completed).unmapped.exposures).toBeUndefined();
  });

  it('maps scan.regressed to Scan Activity 6007, activity 99 Other named Regressed, with the fingerprints found again', () => {
    const r = read(regressed);
    expect(r).toMatchObject({ class_uid: 6007, activity_id: 99, type_uid: 600799, activity_name: 'Regressed', status_id: 99, status: 'Regressed', status_detail: 'found_again', severity_id: 4 });
    expect(r.unmapped).toMatchObject({ regression_reason: 'found_again', fingerprints: regressed.data.fingerprints, score: 61, previous_score: 82 });
    expect(r.message).toMatch(/found again 2 weakness/);
  });

  it('maps vulnerability.critical to Vulnerability Finding 2002 with the OWASP id as the one advisory', () => {
    const v = read(critical);
    const vuln = critical.data.vulnerability!;
    expect(v).toMatchObject({ class_uid: 2002, category_uid: 2, activity_id: 1, type_uid: 200201, severity_id: 5, severity: 'Critical', status_id: 1 });
    expect(v.finding_info).toEqual({
      uid: `${critical.data.scan_id}:${vuln.id}`, title: vuln.title, created_time: Date.parse(critical.timestamp), src_url: critical.data.report_url,
      types: ['LLM07:2025'], analytic: { uid: vuln.probe_id, name: vuln.probe_id, type_id: 1, type: 'Rule' },
    });
    expect(v.vulnerabilities).toEqual([{ title: vuln.title, severity: 'Critical', advisory: { uid: 'LLM07:2025', title: 'System Prompt Leakage' } }]);
    expect(v.resources).toEqual([{ uid: critical.data.target_id, name: critical.data.target_name, type: 'AI Target' }]);
  });

  it('says what proves a finding: the call or the hit in finding_info.desc and the message, whole in unmapped.proof, its kind among the types', () => {
    const call = read(agentCall);
    expect(ocsfErrors(call)).toEqual([]);
    expect(call.finding_info.desc).toBe(`Proof: ${agentCall.data.vulnerability!.proof!.shows}`);
    expect(call.finding_info.types).toEqual(['LLM06:2025', 'proof:tool_call']);
    expect(call.message).toContain('Proof: the agent called send_payment');
    expect(call.unmapped.proof).toEqual({ kind: 'tool_call', shows: agentCall.data.vulnerability!.proof!.shows, tool: 'send_payment', arguments: agentCall.data.vulnerability!.proof!.arguments });
    const hit = read(agentHit);
    expect(hit.unmapped.proof).toMatchObject({ kind: 'out_of_band', method: 'GET', path: '/oob/7f3a/c', at: '2026-11-20T10:03:13.900Z' });
    // a scan's findings by what proves them
    expect(read(agentCompleted).unmapped.findings_by_proof).toEqual({ tool_call: 2, out_of_band: 1, canary: 3 });
    expect(read(critical).finding_info.desc).toBeUndefined();
  });

  it('maps agent.alert to Detection Finding 2004 and the ping to the Base Event', () => {
    const a = read(alert);
    expect(a).toMatchObject({ class_uid: 2004, category_uid: 2, activity_id: 1, type_uid: 200401, severity_id: 4, is_alert: true });
    expect(a.finding_info).toMatchObject({ uid: 'al-1', title: 'canary-leak', types: ['tool_call'], created_time: Date.parse(alert.data.alert.occurred_at) });
    expect(a.unmapped).toEqual({ session_id: 'sess-9', kind: 'tool_call', matched: alert.data.alert.matched });
    expect(read(ping)).toMatchObject({ class_uid: 0, category_uid: 0, activity_id: 99, type_uid: 99 });
  });

  it('the schema catches what OCSF forbids', () => {
    const v = read(critical);
    expect(ocsfErrors({ ...v, vulnerabilities: [{ ...v.vulnerabilities[0], cwe: { uid: 'CWE-77' } }] })).not.toEqual([]);
    expect(ocsfErrors({ ...v, vulnerabilities: [{ title: 'x' }] })).not.toEqual([]);
    expect(ocsfErrors({ ...v, finding_info: { title: 'no uid' } })).not.toEqual([]);
    const s = read(started);
    const { scan: _scan, ...noScan } = s;
    expect(ocsfErrors(noScan)).not.toEqual([]);
    expect(ocsfErrors({ ...s, time: new Date(s.time).toISOString() })).not.toEqual([]);
    expect(ocsfErrors({ ...s, metadata: { ...s.metadata, version: '1.7.0' } })).not.toEqual([]);
    expect(ocsfErrors({ ...s, activity_id: 11 })).not.toEqual([]);
    expect(ocsfErrors({ ...s, scan: { ...s.scan, type_id: 8 } })).not.toEqual([]);
    expect(ocsfErrors({ ...s, severity_id: 7 })).not.toEqual([]);
    expect(ocsfErrors({ ...s, typo_field: 1 })).not.toEqual([]);
  });
});
