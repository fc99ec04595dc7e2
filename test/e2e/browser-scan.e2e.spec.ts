import { existsSync } from 'node:fs';
import { RunningLab, startLab } from '../../apps/lab/src/lab';
import { eventually } from '../support/receiver';
import { removeDir, RunningService, signUp, startService } from '../support/service';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = existsSync(chromium) ? describe : describe.skip;
if (!existsSync(chromium)) console.log(`browser scan e2e skipped: ${chromium} is missing (bash infra/debian-packages.sh installs it)`);

/** A browser-mode scan of the lab's chat page through the service, with no selectors configured. */
run('browser-mode scan of the lab chat page', () => {
  let svc: RunningService;
  let lab: RunningLab;
  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable', streamDelayMs: 2 });
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '0', CHROMIUM_PATH: chromium });
  });
  afterAll(async () => {
    await svc.stop();
    await lab.close();
    removeDir(svc.dataDir);
  });

  it('finds the planted weaknesses in every testable category through the page', async () => {
    const { api } = await signUp(svc.url);
    const target = (await api.post('/api/targets', { name: 'Penny (chat page)', url: `${lab.url}/`, scan_mode: 'browser', canaries: [lab.canaries.system, lab.canaries.data] })).body;
    const scan = (await api.post('/api/scans', { target_id: target.id, profile: 'quick' })).body;
    const status = await eventually(async () => {
      const s = (await api.get(`/api/scans/${scan.id}/status`)).body;
      return ['completed', 'completed_partial', 'failed'].includes(s.status) ? s : undefined;
    }, 600_000, 1000);
    expect(status.status).toBe('completed');
    const detail = (await api.get(`/api/scans/${scan.id}`)).body;
    const categories = new Set(detail.vulnerabilities.map((v: any) => v.category));
    expect([...categories].sort()).toEqual(['LLM01:2025', 'LLM02:2025', 'LLM05:2025', 'LLM06:2025', 'LLM07:2025', 'LLM08:2025', 'LLM09:2025', 'LLM10:2025']);
    // the page renders answers as HTML: output handling is proven by what ran or loaded in it
    const handling = detail.vulnerabilities.filter((v: any) => v.category === 'LLM05:2025').flatMap((v: any) => [v, ...v.variants]);
    const proof = handling.find((v: any) => v.evidence.detector === 'page-effects');
    expect(proof?.evidence.read_as).toBe('rendered page');
    expect(proof?.evidence.turns.some((t: any) => t.observed?.effects?.length)).toBe(true);
  }, 660_000);
});
