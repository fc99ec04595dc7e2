import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { eventually, startReceiver } from '../support/receiver';
import { client, completedQuickScan, removeDir, RunningService, signUp, startService } from '../support/service';

/**
 * What a security team does with results: one finding per weakness, triage that carries to the
 * next scan, the change since the last scan of the target, and CI gates that never pass a partial
 * scan silently and can fail only on what is new.
 */
describe('findings: one per weakness, triage, change since the last scan, CI gates', () => {
  let svc: RunningService;
  let before: RunningLab;
  let after: RunningLab;
  let dying: RunningLab;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    // the target before and after a change: prompt injection fixed, misinformation introduced
    before = await startLab({ mode: 'vulnerable', weaknesses: ['prompt_injection', 'system_prompt_leak'] });
    after = await startLab({ mode: 'vulnerable', weaknesses: ['system_prompt_leak', 'misinformation'] });
    dying = await startLab({ mode: 'vulnerable', failAfter: 25 });
    receiver = await startReceiver(() => null);
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000', SCANNER_CONCURRENCY: '2' });
  });
  afterAll(async () => {
    await svc.stop();
    await Promise.all([before.close(), after.close(), dying.close(), receiver.close()]);
    removeDir(svc.dataDir);
  });

  const labTarget = (l: RunningLab) => ({ name: 'Penny', url: `${l.url}/v1/chat/completions`, scan_mode: 'api', api_format: 'openai', canaries: [l.canaries.system, l.canaries.data] });
  const categoriesOf = (scan: any) => new Set(scan.vulnerabilities.map((v: any) => v.category));

  it('a second scan of the target says what is new, still open and fixed; triage carries over and the recorded score stays', async () => {
    const { api } = await signUp(svc.url);
    const key = (await api.post('/api/api-keys', { name: 'ci' })).body.key;
    const target = (await api.post('/api/targets', labTarget(before))).body;
    expect((await api.post('/api/webhooks', { url: `${receiver.url}/siem`, event_types: ['scan.completed'], format_type: 'json' })).status).toBe(201);

    const first = await completedQuickScan(api, target.id);
    // one finding per weakness (its category and what it exposed or did): fingerprints unique and of
    // that form, the probes that showed it its instances, the probe:category ones it supersedes listed
    const prints = first.vulnerabilities.map((v: any) => v.fingerprint);
    expect(new Set(prints).size).toBe(prints.length);
    for (const v of first.vulnerabilities) {
      expect(v.fingerprint).toMatch(new RegExp(`^${v.category}:[a-z]+:[a-z0-9_-]+$`));
      expect(v.probes).toContain(v.probe_id);
      expect(v.conversations).toBeGreaterThanOrEqual(1 + v.variants.length);
      expect(v.supersedes.every((f: string) => v.probes.includes(f.slice(0, f.indexOf(':'))))).toBe(true);
    }
    expect(first.findings_so_far).toBe(first.vulnerabilities.length);
    const counted = Object.values(first.severity_counts as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(counted).toBe(first.vulnerabilities.length);
    expect([...categoriesOf(first)]).toEqual(expect.arrayContaining(['LLM01:2025', 'LLM07:2025']));
    expect(categoriesOf(first).has('LLM09:2025')).toBe(false);

    const firstDiff = await api.get(`/api/scans/${first.id}/diff`);
    expect(firstDiff.status).toBe(200);
    expect(firstDiff.body).toMatchObject({ base_scan_id: null, still_open: [], fixed: [] });
    expect(firstDiff.body.new.sort()).toEqual(first.vulnerabilities.map((v: any) => v.id).sort());

    // triage: a false positive on one system prompt leak, with a bad request first that changes nothing
    const leak = first.vulnerabilities.find((v: any) => v.category === 'LLM07:2025');
    const triageUrl = `/api/scans/${first.id}/vulnerabilities/${leak.id}/triage`;
    const bad = await api.post(triageUrl, { state: 'ignored', reason: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
    expect((await api.post(triageUrl, { state: 'false_positive', reason: 'x', expires_at: '2099-01-01T00:00:00Z' })).status).toBe(400);
    expect((await api.post(triageUrl, { state: 'false_positive', reason: '' })).status).toBe(400);
    expect((await api.post(triageUrl, { state: 'false_positive', reason: '   ' })).status).toBe(400);
    expect((await api.post(triageUrl, { state: 'false_positive', reason: 'fine\u202eexe.txt' })).status).toBe(400);
    expect((await api.post(`/api/scans/${first.id}/vulnerabilities/no-such-finding/triage`, { state: 'fixed', reason: 'x' })).status).toBe(404);
    const other = await signUp(svc.url);
    expect((await other.api.post(triageUrl, { state: 'false_positive', reason: 'mine now' })).status).toBe(404);
    expect((await api.get(`/api/scans/${first.id}`)).body.vulnerabilities.find((v: any) => v.id === leak.id).triage).toBeUndefined();

    const scoreBefore = (await api.get(`/api/scans/${first.id}/score`)).body;
    expect(scoreBefore.after_triage).toMatchObject({ overall_score: scoreBefore.overall_score, findings_triaged_away: 0 });
    const triaged = await api.post(triageUrl, { state: 'false_positive', reason: 'the quoted prompt is public marketing copy' });
    expect(triaged.status).toBe(200);
    expect(triaged.body).toMatchObject({ fingerprint: leak.fingerprint, target_id: target.id, triage: { state: 'false_positive', reason: 'the quoted prompt is public marketing copy', by: expect.stringMatching(/^account:/), expires_at: null } });
    const shown = (await api.get(`/api/scans/${first.id}`)).body.vulnerabilities.find((v: any) => v.id === leak.id);
    expect(shown.triage).toMatchObject({ state: 'false_positive', reason: 'the quoted prompt is public marketing copy' });
    const scoreAfter = (await api.get(`/api/scans/${first.id}/score`)).body;
    // the recorded score never changes; the score after triage sits beside it
    expect({ ...scoreAfter, after_triage: undefined }).toEqual({ ...scoreBefore, after_triage: undefined });
    expect(scoreAfter.after_triage.findings_triaged_away).toBe(1);
    expect(scoreAfter.after_triage.overall_score).toBeGreaterThanOrEqual(scoreBefore.overall_score);

    // the target changes: prompt injection fixed, misinformation introduced
    expect((await api.patch(`/api/targets/${target.id}`, { url: `${after.url}/v1/chat/completions`, canaries: [after.canaries.system, after.canaries.data] })).status).toBe(200);
    const second = await completedQuickScan(api, target.id);
    expect([...categoriesOf(second)]).toEqual(expect.arrayContaining(['LLM07:2025', 'LLM09:2025']));
    expect(categoriesOf(second).has('LLM01:2025')).toBe(false);
    const diff = (await api.get(`/api/scans/${second.id}/diff`)).body;
    const byId = new Map(second.vulnerabilities.map((v: any) => [v.id, v]));
    const firstPrints = new Set(first.vulnerabilities.map((v: any) => v.fingerprint));
    expect(diff.base_scan_id).toBe(first.id);
    expect([...diff.new, ...diff.still_open].sort()).toEqual([...byId.keys()].sort());
    for (const id of diff.new) expect(firstPrints.has((byId.get(id) as any).fingerprint)).toBe(false);
    for (const id of diff.still_open) expect(firstPrints.has((byId.get(id) as any).fingerprint)).toBe(true);
    expect(diff.new.map((id: string) => (byId.get(id) as any).category)).toContain('LLM09:2025');
    expect(diff.still_open.map((id: string) => (byId.get(id) as any).category)).toContain('LLM07:2025');
    const injection = first.vulnerabilities.filter((v: any) => v.category === 'LLM01:2025').map((v: any) => v.fingerprint);
    // missed once after one scan had it: not reproduced this time, not yet fixed (a model's chance looks the same)
    expect([...diff.not_reproduced, ...diff.not_retested].sort()).toEqual(injection.sort());
    expect(diff.not_reproduced.length).toBeGreaterThan(0);
    expect(diff.fixed).toEqual([]);

    // the webhook said the same: as many new findings as the diff, against the same base
    const told = await eventually(() => receiver.deliveries.find((d) => d.json?.event === 'scan.completed' && d.json.data.scan_id === second.id), 20_000);
    expect(told.json.data).toMatchObject({ new_findings: diff.new.length, base_scan_id: first.id, total_findings: second.vulnerabilities.length });

    // the false positive carried over to the later scan that found the same weakness
    const again = second.vulnerabilities.find((v: any) => v.fingerprint === leak.fingerprint);
    expect(again.triage).toMatchObject({ state: 'false_positive' });

    // every report says what changed; the json report carries it whole
    const report = (await api.get(`/api/scans/${second.id}/report?format=json`)).body;
    expect(report.changes).toMatchObject({ base_scan_id: first.id, fixed: diff.fixed, not_reproduced: diff.not_reproduced });
    expect(report.changes.new.sort()).toEqual([...diff.new].sort());
    expect(report.changes.still_open.sort()).toEqual([...diff.still_open].sort());
    expect(report.triage.score_after_triage).toEqual(expect.objectContaining({ overall_score: expect.any(Number) }));

    // CI gating only on new findings: the misinformation findings are new
    const ci = client(svc.url, { apiKey: key });
    const gated = await ci.post('/api/ci/scan', { target_id: target.id, fail_on: 'new', wait: true, timeout_seconds: 120, profile: 'quick' });
    expect(gated.status).toBe(200); // the same target again: nothing is new since the second scan
    expect(gated.body).toMatchObject({ fail_on: 'new', passed: true, new_findings: 0, base_scan_id: second.id });
    const onSecond = await ci.get(`/api/ci/scan/${second.id}?fail_on=new`);
    expect(onSecond.status).toBe(422);
    expect(onSecond.body).toMatchObject({ passed: false, base_scan_id: first.id, new_findings: diff.new.length });
    expect((await ci.get(`/api/ci/scan/${second.id}?fail_on=sometimes`)).status).toBe(400);
  }, 300_000);

  it('a scan cut short answers 424 at the gate with its reason, unless the request allows partial results', async () => {
    const { api } = await signUp(svc.url);
    const key = (await api.post('/api/api-keys', { name: 'ci' })).body.key;
    const ci = client(svc.url, { apiKey: key });
    const target = (await ci.post('/api/targets', labTarget(dying))).body;
    const gated = await ci.post('/api/ci/scan', { target_id: target.id, fail_threshold: 0, wait: true, timeout_seconds: 120, profile: 'quick' });
    expect(gated.status).toBe(424);
    expect(gated.headers.get('content-type')).toMatch(/problem\+json/);
    expect(gated.body).toMatchObject({ scan_status: 'completed_partial', passed: false, reason: expect.any(String), partial: true });
    const allowed = await ci.get(`/api/ci/scan/${gated.body.scan_id}?allow_partial=true`);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ status: 'completed_partial', passed: true, allow_partial: true, partial: true });
    // the gate's own answer never shows a partial grade without its mark, and agrees with the score view
    const score = (await ci.get(`/api/scans/${gated.body.scan_id}/score`)).body;
    expect(allowed.body.coverage).toBe(score.coverage);
    expect(allowed.body.coverage).toBeGreaterThan(0);
    expect(allowed.body.coverage).toBeLessThan(1);
    expect(allowed.body.security_grade_label).toBe(score.grade_label);
    expect(allowed.body.security_grade_label).toMatch(/partial/);
    expect(allowed.body.security_grade_after_triage_label).toMatch(/partial/);
    expect(gated.body).toMatchObject({ coverage: score.coverage, security_grade_label: score.grade_label });
    expect((await ci.get(`/api/ci/scan/${gated.body.scan_id}`)).status).toBe(424);
    expect((await ci.get(`/api/ci/scan/${gated.body.scan_id}?allow_partial=yes`)).status).toBe(400);
  }, 200_000);
});
