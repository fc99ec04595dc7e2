import { verifyChain } from '@gauntlet/assessment';
import { insideOneClockWindow } from '../support/clock-window';
import { proofShows, proofWhere } from '@gauntlet/domain';
import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { eventually, startReceiver } from '../support/receiver';
import { client, removeDir, RunningService, signUp, startService } from '../support/service';

const ADMIN = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'admin-password-123' };

/**
 * The product end to end on the embedded engines: a scan of the vulnerable lab runs through its
 * phases, finds real weaknesses, is scored once, yields compliance evidence with a verifiable
 * history and reports in every format the plan allows, gates CI, and is told to a webhook.
 */
describe('scan flow: lab target, scan, results, CI gate, webhooks', () => {
  let svc: RunningService;
  let lab: RunningLab;
  let hardened: RunningLab;
  let slow: RunningLab;
  let secret: string | null = null;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable' });
    hardened = await startLab({ mode: 'hardened' });
    slow = await startLab({ mode: 'vulnerable', latencyMs: 1500 });
    receiver = await startReceiver(() => secret);
    svc = await startService({ ...ADMIN, RATE_LIMIT_PER_MINUTE: '100000', SCANNER_CONCURRENCY: '2' });
  });
  afterAll(async () => {
    await svc.stop();
    await Promise.all([lab.close(), hardened.close(), slow.close(), receiver.close()]);
    removeDir(svc.dataDir);
  });

  const labTarget = (l: RunningLab) => ({
    name: 'Penny (lab)', url: `${l.url}/v1/chat/completions`, scan_mode: 'api', api_format: 'openai', model: 'penny-lab', api_key: 'sk-lab-key-0123456789',
    canaries: [l.canaries.system, l.canaries.data],
  });

  it('scans the vulnerable lab: progress moves, findings arrive, the score is recorded, and everything is reported', async () => {
    const { api, id: accountId } = await signUp(svc.url);
    const hook = await api.post('/api/webhooks', { url: `${receiver.url}/siem`, event_types: ['scan.started', 'scan.completed', 'vulnerability.critical'], format_type: 'json' });
    expect(hook.status).toBe(201);
    expect(hook.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    secret = hook.body.secret;

    const target = (await api.post('/api/targets', labTarget(lab))).body;
    const scan = await api.post('/api/scans', { target_id: target.id, profile: 'quick' });
    expect(scan.status).toBe(201);

    // status moves while the scan runs: progress never goes down, phases only forward
    const seen: { phase: string; progress: number; findings_so_far: number; status: string }[] = [];
    const final = await eventually(async () => {
      const s = (await api.get(`/api/scans/${scan.body.id}/status`)).body;
      seen.push(s);
      return ['completed', 'completed_partial', 'failed'].includes(s.status) ? s : undefined;
    }, 120_000, 50);
    expect(final).toMatchObject({ status: 'completed', phase: 'done', progress: 100 });
    expect(final.findings_so_far).toBeGreaterThan(0);
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const phases = ['queued', 'recon', 'probe', 'amplify', 'analyze', 'report', 'done'];
    const order = seen.map((s) => phases.indexOf(s.phase));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(seen.map((s) => s.phase)).size).toBeGreaterThan(2);

    const detail = (await api.get(`/api/scans/${scan.body.id}`)).body;
    expect(detail.vulnerabilities.length).toBe(final.findings_so_far);
    const v = detail.vulnerabilities[0];
    for (const field of ['id', 'probe_id', 'category', 'category_name', 'title', 'severity', 'confidence', 'technique', 'converters', 'description', 'evidence', 'remediation', 'references', 'phase', 'found_at']) {
      expect(v).toHaveProperty(field);
    }
    expect(v.category).toMatch(/^LLM\d\d:2025$/);
    expect(JSON.stringify(detail)).not.toContain('sk-lab-key');

    const score = await api.get(`/api/scans/${scan.body.id}/score`);
    expect(score.status).toBe(200);
    expect(score.body).toMatchObject({ overall_score: expect.any(Number), grade: expect.stringMatching(/^(A\+|A|A-|B\+|B|B-|C\+|C|C-|D\+|D|D-|F)$/), scoring_version: expect.any(String) });
    expect(score.body.overall_score).toBeLessThan(70); // a lab this vulnerable cannot earn a C-
    for (const id of Object.keys(score.body.category_scores)) expect(id).toMatch(/^LLM(0[1-9]|10):2025$/);
    expect(detail.security_score).toBe(score.body.overall_score);

    const evidence = (await api.get(`/api/scans/${scan.body.id}/compliance-evidence`)).body;
    expect(Object.keys(evidence.frameworks)).toEqual(expect.arrayContaining(['owasp_llm_top10', 'nist_ai_rmf', 'soc2_cc7']));
    expect(evidence.frameworks.owasp_llm_top10.controls.some((c: any) => c.status === 'fail')).toBe(true);
    expect(evidence.frameworks.soc2_cc7.controls.map((c: any) => c.id)).toEqual(expect.arrayContaining(['CC7.1', 'CC7.2', 'CC7.3', 'CC7.4', 'CC7.5']));

    // the auditor's replay: the streamed history re-computes to the digest in the evidence
    const history = await api.get(`/api/scans/${scan.body.id}/events`);
    expect(history.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = history.text.trim().split('\n');
    expect(lines.length).toBe(evidence.integrity.event_count);
    const verified = verifyChain(history.text, { chain_sha256: evidence.integrity.chain_sha256 });
    expect(verified).toMatchObject({ ok: true });
    // one recorded number changed, whatever it was
    const tampered = lines.map((l, i) => (i === 3 ? l.replace(/"progress":(\d+)/, (_, n) => `"progress":${Number(n) + 1}`) : l)).join('\n');
    expect(tampered).not.toBe(history.text.trim());
    expect(verifyChain(tampered, { chain_sha256: evidence.integrity.chain_sha256 })).toMatchObject({ ok: false });

    // plans: free gets json only
    const json = await api.get(`/api/scans/${scan.body.id}/report?format=json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.json"$/);
    const pdfFree = await api.get(`/api/scans/${scan.body.id}/report?format=pdf`);
    expect(pdfFree.status).toBe(403);
    expect(pdfFree.body.detail).toMatch(/free/);
    expect((await api.get(`/api/scans/${scan.body.id}/report?format=docx`)).status).toBe(400);

    const admin = client(svc.url, { token: (await client(svc.url).post('/api/auth/login', { email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD })).body.access_token });
    expect((await admin.put(`/api/admin/accounts/${accountId}/plan`, { plan: 'pro' })).status).toBe(200);
    for (const [format, type] of [['pdf', 'application/pdf'], ['csv', 'text/csv'], ['markdown', 'text/markdown'], ['html', 'text/html']]) {
      const r = await api.raw('GET', `/api/scans/${scan.body.id}/report?format=${format}`);
      expect([format, r.status]).toEqual([format, 200]);
      expect(r.headers.get('content-type')).toContain(type);
      expect(r.headers.get('content-disposition')).toMatch(/^attachment;/);
    }

    // the webhook heard about it, signed both ways
    const events = await eventually(() => {
      const names = receiver.deliveries.map((d) => d.json?.event);
      return names.includes('scan.started') && names.includes('scan.completed') ? receiver.deliveries : undefined;
    }, 20_000);
    for (const d of events) {
      expect(d.serviceSignatureOk).toBe(true);
      expect(d.standardSignatureOk).toBe(true);
      expect(d.headers['x-service-delivery']).toBe(d.headers['webhook-id']);
      expect(d.headers['content-type']).toMatch(/^application\/json/);
    }
    const done = events.find((d) => d.json.event === 'scan.completed')!.json;
    expect(done.data).toMatchObject({
      scan_id: scan.body.id, target_id: target.id, target_name: 'Penny (lab)', status: 'completed', security_score: score.body.overall_score,
      security_grade: score.body.grade, total_findings: final.findings_so_far, report_url: `${svc.runtime.config.publicBaseUrl}/api/scans/${scan.body.id}/report`,
      // the target's first scan: every finding is new
      new_findings: final.findings_so_far, base_scan_id: null,
    });
    expect(new Date(done.timestamp).toISOString()).toBe(done.timestamp);
    if (score.body.critical_count > 0) expect(events.some((d) => d.json.event === 'vulnerability.critical')).toBe(true);

    const log = (await api.get(`/api/webhooks/${hook.body.id}/deliveries`)).body.deliveries;
    expect(log.length).toBeGreaterThanOrEqual(2);
    expect(log.every((d: any) => d.status === 'succeeded' && d.attempts.length === 1 && d.attempts[0].status === 204)).toBe(true);
  }, 180_000);

  it('finds what the owner told it the target holds, by label with its proof, and never says a told value itself', async () => {
    const { api } = await signUp(svc.url);
    const NEVER_SAID = 'QX-NEVER-SAID-7731-ZK';
    const sensitive = [
      { label: 'payments API key', value: 'rk_live_51HqLyjWDarjtT1zdp7dcXmPq' },
      { label: 'customer name', value: 'Dana Kowalski' },
      { label: 'vault code', value: NEVER_SAID },
    ];
    const created = await api.post('/api/targets', { ...labTarget(lab), canaries: [], sensitive });
    expect(created.status).toBe(201);
    expect(created.body.sensitive).toEqual(sensitive.map((x) => ({ label: x.label, fingerprint: expect.stringMatching(/^fp2_[0-9a-f]{20}$/) })));
    const target = created.body;
    // the same values give the same fingerprints; nothing reads back the values
    expect(JSON.stringify((await api.get(`/api/targets/${target.id}`)).body)).not.toContain('rk_live_51HqLyj');
    const scan = (await api.post('/api/scans', { target_id: target.id, profile: 'quick' })).body;
    await eventually(async () => {
      const s = (await api.get(`/api/scans/${scan.id}/status`)).body;
      return ['completed', 'completed_partial', 'failed'].includes(s.status) ? s : undefined;
    }, 120_000, 100);
    const detail = (await api.get(`/api/scans/${scan.id}`)).body;
    const told = detail.vulnerabilities.filter((v: any) => v.evidence.proof?.matched.kind === 'sensitive');
    expect(told.length).toBeGreaterThan(0);
    expect(told.map((v: any) => v.evidence.proof.matched.label)).toEqual(expect.arrayContaining(['payments API key']));
    // the key is one LLM02 finding whichever probes drew it out, named by its label and kind, its value masked
    const key = told.find((v: any) => v.evidence.proof.matched.label === 'payments API key' && v.category === 'LLM02:2025');
    expect(key).toMatchObject({ category: 'LLM02:2025', severity: 'critical' });
    expect(told.filter((v: any) => v.exposures.some((e: any) => e.label === 'payments API key'))).toEqual([key]);
    expect(key.description).toMatch(/payments API key \(a credential/);
    expect(detail.exposures).toEqual(expect.arrayContaining([expect.objectContaining({ label: 'payments API key', kind: 'credential', rotate: true, vulnerability_id: key.id })]));
    // every high or critical finding quotes the answer that proves it, where the proof says
    for (const v of detail.vulnerabilities.filter((f: any) => f.severity === 'critical' || f.severity === 'high')) {
      const { proof, turns } = v.evidence;
      expect(proof).toBeDefined();
      if (!proof.read_as) expect(turns[proof.turn].content.slice(proof.start, proof.end)).toBe(proof.text);
      expect(v.evidence.matched).toBe(proof.text.length > 200 ? `${proof.text.slice(0, 200)}…` : proof.text);
      // and says it in the words every report and webhook use
      expect([proof.shows, proof.where]).toEqual([proofShows(proof.matched), proofWhere(proof)]);
    }
    // a told value the bot never said is nowhere: not in the target, the scan, its report or its history
    const report = await api.get(`/api/scans/${scan.id}/report?format=json`);
    const history = await api.get(`/api/scans/${scan.id}/events`);
    for (const text of [JSON.stringify(target), JSON.stringify(detail), report.text, history.text]) expect(text).not.toContain(NEVER_SAID);
  }, 180_000);

  it('answers the 31st report download in an hour with 429 and Retry-After; refused downloads spend nothing', async () => {
    const { api } = await signUp(svc.url);
    const target = (await api.post('/api/targets', labTarget(lab))).body;
    const running = (await api.post('/api/scans', { target_id: target.id, profile: 'quick' })).body;
    // refused before the scan ends (409), for a format the plan lacks (403), a bad format (400), a scan that is not there (404)
    expect((await api.get(`/api/scans/${running.id}/report?format=json`)).status).toBe(409);
    const scan = running;
    await eventually(async () => ((await api.get(`/api/scans/${scan.id}/status`)).body.status === 'completed' ? true : undefined), 120_000, 100);
    for (let i = 0; i < 5; i++) {
      expect((await api.get(`/api/scans/${scan.id}/report?format=pdf`)).status).toBe(403);
      expect((await api.get(`/api/scans/${scan.id}/report?format=docx`)).status).toBe(400);
      expect((await api.get('/api/scans/6f1c1d2e-8a7b-4c3d-9e8f-0a1b2c3d4e5f/report?format=json')).status).toBe(404);
    }
    await insideOneClockWindow(3_600_000, 60_000);
    for (let i = 1; i <= 30; i++) {
      const r = await api.get(`/api/scans/${scan.id}/report?format=json`);
      expect([i, r.status]).toEqual([i, 200]);
      expect(r.headers.get('x-ratelimit-remaining-reports')).toBe(String(30 - i));
    }
    const limited = await api.get(`/api/scans/${scan.id}/report?format=json`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/problem\+json/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    // the limit is per account: another account is not affected
    const other = await signUp(svc.url);
    expect((await other.api.get(`/api/scans/${scan.id}/report?format=json`)).status).toBe(404);
  }, 180_000);

  it('gates CI with an API key: 200 when the score meets the threshold, 422 below it, 424 when the scan fails', async () => {
    const { api } = await signUp(svc.url);
    const key = (await api.post('/api/api-keys', { name: 'ci' })).body.key;
    const ci = client(svc.url, { apiKey: key });
    const vulnerable = (await ci.post('/api/targets', labTarget(lab))).body;
    const safe = (await ci.post('/api/targets', labTarget(hardened))).body;

    const started = await ci.post('/api/ci/scan', { target_id: safe.id, fail_threshold: 50 });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ scan_id: expect.any(String), status: 'pending' });
    const passed = await eventually(async () => {
      const r = await ci.get(`/api/ci/scan/${started.body.scan_id}`);
      return r.status === 202 ? undefined : r;
    }, 120_000, 250);
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({ scan_id: started.body.scan_id, status: 'completed', passed: true, fail_threshold: 50, security_score: expect.any(Number) });

    const below = await ci.post('/api/ci/scan', { target_id: vulnerable.id, fail_threshold: 95, wait: true, timeout_seconds: 120, profile: 'quick' });
    expect(below.status).toBe(422);
    expect(below.body).toMatchObject({ status: 'completed', passed: false, fail_threshold: 95 });
    expect(below.body.security_score).toBeLessThan(95);

    const dead = (await ci.post('/api/targets', { ...labTarget(lab), url: 'http://127.0.0.1:9/v1/chat/completions' })).body;
    const failed = await ci.post('/api/ci/scan', { target_id: dead.id, fail_threshold: 10, wait: true, timeout_seconds: 120, profile: 'quick' });
    expect(failed.status).toBe(424);
    expect(failed.body).toMatchObject({ scan_status: 'failed', passed: false });

    const sluggish = (await ci.post('/api/targets', labTarget(slow))).body;
    const timeout = await ci.post('/api/ci/scan', { target_id: sluggish.id, fail_threshold: 10, wait: true, timeout_seconds: 1 });
    expect(timeout.status).toBe(504);
    expect(timeout.body.scan_id).toEqual(expect.any(String));
    await ci.post(`/api/scans/${timeout.body.scan_id}/cancel`);
  }, 300_000);
});
