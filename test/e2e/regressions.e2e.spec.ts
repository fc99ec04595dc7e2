import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { ocsfErrors } from '../../libs/webhooks/src/formats/ocsf/validate';
import { eventually, startReceiver } from '../support/receiver';
import { completedQuickScan, removeDir, RunningService, signUp, startService } from '../support/service';

const FORMATS = ['json', 'ocsf', 'cef', 'syslog'] as const;

/** what each format's receiver reads back from a scan.regressed delivery: the reason and the scan */
function readBack(format: (typeof FORMATS)[number], body: string): { reason: string; scan_id: string } {
  switch (format) {
    case 'json': {
      const e = JSON.parse(body);
      expect(e.event).toBe('scan.regressed');
      return { reason: e.data.reason, scan_id: e.data.scan_id };
    }
    case 'ocsf': {
      const e = JSON.parse(body);
      expect(ocsfErrors(e)).toEqual([]);
      expect(e).toMatchObject({ class_uid: 6007, activity_id: 99, status: 'Regressed' });
      return { reason: e.status_detail, scan_id: e.scan.uid };
    }
    case 'cef': {
      // ArcSight: seven unescaped-pipe separated header fields, then key=value pairs
      const m = /^CEF:0\|((?:[^|\\]|\\.)*)\|((?:[^|\\]|\\.)*)\|((?:[^|\\]|\\.)*)\|scan\.regressed\|Scan regressed\|(\d+)\|(.*)$/.exec(body);
      expect(m).not.toBeNull();
      const ext = Object.fromEntries([...m![5].matchAll(/(\w+)=((?:[^=\\]|\\.)*?)(?= \w+=|$)/g)].map((x) => [x[1], x[2]]));
      const label = (v: string) => Object.entries(ext).find(([k, l]) => k.endsWith('Label') && l === v)?.[0].replace(/Label$/, '');
      return { reason: ext.reason, scan_id: ext[label('scanId')!] };
    }
    case 'syslog': {
      // RFC 5424: <PRI>1 TIMESTAMP HOST APP PROCID MSGID [SD] MSG
      const m = /^<(\d{1,3})>1 (\S+) (\S+) (\S+) (\S+) scan\.regressed \[gauntlet@\d+ (.*?)\] \uFEFF/.exec(body);
      expect(m).not.toBeNull();
      const sd = Object.fromEntries([...m![6].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
      return { reason: sd.reason, scan_id: sd.scan_id };
    }
  }
}

/**
 * A weakness triaged as fixed and brought back in the lab, and a score that fell past the owner's
 * threshold: each raises scan.regressed, recorded on the scan's stream, delivered in every format.
 */
describe('regressions raise scan.regressed in every format', () => {
  let svc: RunningService;
  let before: RunningLab;
  let worse: RunningLab;
  const receivers: Record<string, Awaited<ReturnType<typeof startReceiver>>> = {};
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    before = await startLab({ mode: 'vulnerable', weaknesses: ['prompt_injection'] });
    worse = await startLab({ mode: 'vulnerable', weaknesses: ['prompt_injection', 'system_prompt_leak', 'misinformation'] });
    for (const f of FORMATS) receivers[f] = await startReceiver(() => secrets[f] ?? null);
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000', SCANNER_CONCURRENCY: '2' });
  });
  afterAll(async () => {
    await svc.stop();
    await Promise.all([before.close(), worse.close(), ...Object.values(receivers).map((r) => r.close())]);
    removeDir(svc.dataDir);
  });


  it('a fix that did not hold and a score drop past the threshold each alert once, in json, OCSF, CEF and syslog', async () => {
    const { api } = await signUp(svc.url);
    for (const f of FORMATS) {
      const hook = await api.post('/api/webhooks', { url: `${receivers[f].url}/${f}`, event_types: ['scan.regressed'], format_type: f });
      expect(hook.status).toBe(201);
      secrets[f] = hook.body.secret;
    }
    const target = (await api.post('/api/targets', { name: 'Penny', url: `${before.url}/v1/chat/completions`, scan_mode: 'api', api_format: 'openai', canaries: [before.canaries.system, before.canaries.data] })).body;
    const first = await completedQuickScan(api, target.id);
    const injection = first.vulnerabilities.find((v: any) => v.category === 'LLM01:2025');
    expect(injection).toBeDefined();
    expect((await api.post(`/api/scans/${first.id}/vulnerabilities/${injection.id}/triage`, { state: 'fixed', reason: 'input filter deployed' })).status).toBe(200);

    // the "fix" did not hold, and the new release leaks too: the score falls by more than 1 point
    expect((await api.patch(`/api/targets/${target.id}`, { url: `${worse.url}/v1/chat/completions`, canaries: [worse.canaries.system, worse.canaries.data], regression_threshold: 1 })).body.regression_threshold).toBe(1);
    const second = await completedQuickScan(api, target.id);
    const [s1, s2] = [(await api.get(`/api/scans/${first.id}/score`)).body.overall_score, (await api.get(`/api/scans/${second.id}/score`)).body.overall_score];
    expect(s1 - s2).toBeGreaterThan(1);

    for (const f of FORMATS) {
      const got = await eventually(() => (receivers[f].deliveries.length >= 2 ? receivers[f].deliveries : undefined), 30_000);
      const read = got.map((d) => readBack(f, d.body));
      expect(read.map((r) => r.reason).sort()).toEqual(['found_again', 'score_drop']);
      for (const r of read) expect(r.scan_id).toBe(second.id);
      for (const d of got) expect(d.serviceSignatureOk && d.standardSignatureOk).toBe(true);
    }
    const json = receivers.json.deliveries.map((d) => d.json.data);
    expect(json.find((d) => d.reason === 'found_again')).toMatchObject({ target_id: target.id, fingerprints: [injection.fingerprint], score: s2, previous_score: s1 });
    expect(json.find((d) => d.reason === 'score_drop')).toMatchObject({ fingerprints: [], score: s2, previous_score: s1 });

    // recorded on the scan's stream: a replay of its history shows the same two regressions
    const history = (await api.get(`/api/scans/${second.id}/events`)).text.trim().split('\n').map((l) => JSON.parse(l));
    expect(history.filter((e) => e.type === 'ScanRegressed').map((e) => e.data.reason).sort()).toEqual(['found_again', 'score_drop']);
    // the fleet view shows it: the last grade, the drop, the open findings after triage, the regressions
    const fleet = (await api.get('/api/fleet')).body.targets;
    const row = fleet.find((t: any) => t.target_id === target.id);
    expect(row).toMatchObject({ last_scan: { id: second.id, score: s2 }, previous_score: s1, change: s2 - s1, scanning: false, next_run_at: null, last_failure: null });
    expect(row.regressions.map((r: any) => r.reason).sort()).toEqual(['found_again', 'score_drop']);
    const open = Object.values(row.open_findings as Record<string, number>).reduce((a, b) => a + b, 0);
    // the weakness triaged fixed and found again is open again
    expect(open).toBe(second.vulnerabilities.length);
    const trend = (await api.get(`/api/fleet/${target.id}/trend`)).body;
    expect(trend.points.map((p: any) => [p.scan_id, p.score])).toEqual([[first.id, s1], [second.id, s2]]);
    // the first scan's injection finding stays fixed there (triaged before the second scan was requested)
    const firstOpen = Object.values(trend.points[0].open_findings as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(firstOpen).toBe(first.vulnerabilities.length - 1);

    // the first scan regressed nothing
    expect(receivers.json.deliveries.filter((d) => d.json.data.scan_id === first.id)).toHaveLength(0);
  }, 300_000);
});
