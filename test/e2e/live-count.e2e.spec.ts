import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { eventually } from '../support/receiver';
import { removeDir, RunningService, signUp, startService } from '../support/service';

jest.setTimeout(180_000);

/**
 * The running count and the bar, watched through the status view while a real scanner scans a lab
 * that takes a little time to answer: findings are counted as the attempts that prove them are
 * recorded (not at the analyze phase), the count never goes down and ends at the final count, and
 * the bar, as the scan's history records it, never jumps by more than a phase's share.
 */
describe('live count: findings_so_far and progress while a scan runs', () => {
  let svc: RunningService;
  let lab: RunningLab;

  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable', latencyMs: 120 });
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000', OUTBOUND_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await svc?.stop();
    await lab?.close();
    if (svc) removeDir(svc.dataDir);
  });

  it('findings_so_far rises during probing, never goes down, and ends at the number of findings; progress moves in small steps', async () => {
    const { api } = await signUp(svc.url);
    const target = (await api.post('/api/targets', { name: 'lab', url: `${lab.url}/v1`, scan_mode: 'api', api_format: 'openai', model: 'penny-lab' })).body;
    const scan = (await api.post('/api/scans', { target_id: target.id, profile: 'quick' })).body;

    const seen: { status: string; phase: string; progress: number; findings_so_far: number; partial: boolean; coverage: number | null }[] = [];
    let provenWhileRunning: { fingerprint: string }[] = [];
    const final = await eventually(async () => {
      const s = (await api.get(`/api/scans/${scan.id}/status`)).body;
      seen.push(s);
      // the weaknesses themselves are in the detail as soon as they are counted
      if (s.status === 'running' && s.findings_so_far > 0 && !provenWhileRunning.length) {
        const d = (await api.get(`/api/scans/${scan.id}`)).body;
        if (d.status === 'running') provenWhileRunning = d.proven_so_far;
      }
      return ['completed', 'completed_partial', 'failed', 'cancelled'].includes(s.status) ? s : undefined;
    }, 150_000, 40);
    expect(final).toMatchObject({ status: 'completed', progress: 100, partial: false, coverage: 1 });

    const detail = (await api.get(`/api/scans/${scan.id}`)).body;
    expect(detail.vulnerabilities.length).toBeGreaterThan(0);
    expect(final.findings_so_far).toBe(detail.vulnerabilities.length);

    expect(provenWhileRunning.length).toBeGreaterThan(0);
    // grouped as the findings are: the weaknesses proven are exactly the findings written
    expect(detail.proven_so_far.map((p: any) => p.fingerprint).sort()).toEqual(detail.vulnerabilities.map((v: any) => v.fingerprint).sort());
    const counts = seen.map((s) => s.findings_so_far);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(Math.max(...counts)).toBe(detail.vulnerabilities.length);
    // counted while probing and amplifying, not only when the findings are written at the end
    const whileAttacking = seen.filter((s) => s.phase === 'probe' || s.phase === 'amplify');
    expect(whileAttacking.length).toBeGreaterThan(0);
    expect(Math.max(...whileAttacking.map((s) => s.findings_so_far))).toBeGreaterThan(0);

    // the bar as polled never goes down
    const running = seen.filter((s) => s.status === 'running').map((s) => s.progress);
    expect(running).toEqual([...running].sort((a, b) => a - b));
    // and as recorded it moves in small steps: read from the scan's history, not from polls, whose
    // spacing a busy machine stretches
    const history = (await api.get(`/api/scans/${scan.id}/events`)).text.trim().split('\n').map((l) => JSON.parse(l));
    const recorded = history.filter((e) => e.type === 'ScanPhaseEntered' || e.type === 'ProbeAttempted').map((e) => e.data.progress as number);
    expect(recorded.length).toBeGreaterThan(20);
    expect(recorded).toEqual([...recorded].sort((a, b) => a - b));
    const steps = recorded.map((p, i) => p - (recorded[i - 1] ?? 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(25);
  });
});
