import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright';
import { scanDecider, streams, ScanCommand, ScanScore, Vulnerability } from '@gauntlet/domain';
import { Scheduler } from '../../apps/gauntlet/src/schedules/scheduler';
import { client, removeDir, RunningService, signUp, startService } from '../support/service';
import { launchChromium, screenshot, watchProblems } from './support/browser';

jest.setTimeout(90_000);

/**
 * The fleet view (home), a target's trend chart (uPlot) and the schedules page in real Chromium.
 * Scans are driven by appending their events here (no scanner runs), so scores are known; the
 * chart is checked by reading its pixels back, as well as saved as a screenshot.
 */
describe('fleet view and trend chart in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let api: ReturnType<typeof client>;
  let token: string;
  const ids: Record<string, string> = {};

  let day = 0;
  /** a finished scan; their end times a day apart, as a nightly schedule would have them */
  const finish = async (target_id: string, overall: number, findings: Vulnerability['severity'][]) => {
    const finishedAt = new Date(Date.now() - (10 - ++day) * 24 * 3600_000).toISOString();
    const scan = (await api.post('/api/scans', { target_id, profile: 'quick' })).body;
    const drive = (c: ScanCommand) => svc.runtime.writePath.decide(scanDecider, streams.scan(scan.id), c, { actor: 'test', correlationId: randomUUID() });
    const now = () => new Date().toISOString();
    await drive({ type: 'StartScan', worker_id: 'w', now: now() });
    for (const [i, sev] of findings.entries()) await drive({ type: 'RecordVulnerability', vulnerability: vuln(i, sev) });
    const count = (s: string) => findings.filter((f) => f === s).length;
    await drive({ type: 'CompleteScan', score: score(overall, count('critical'), count('high'), count('medium'), count('low')), now: finishedAt });
    return scan.id as string;
  };

  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '100000' }, ['api', 'projector', 'relay']);
    ({ api, token } = await signUp(svc.url));
    for (const [name, tags] of [['Support bot', ['prod', 'eu']], ['Sales bot', ['prod']], ['Staging bot', ['staging']]] as const) {
      ids[name] = (await api.post('/api/targets', { name, url: 'http://127.0.0.1:9/v1', scan_mode: 'api', api_format: 'openai', tags })).body.id;
    }
    // Support bot got worse over four scans; Sales bot improved; Staging bot was never scanned
    for (const [s, f] of [[88, ['low']], [81, ['medium', 'low']], [74, ['high', 'medium']], [55, ['critical', 'high', 'high', 'medium']]] as const) await finish(ids['Support bot'], s, [...f]);
    for (const [s, f] of [[60, ['high', 'high']], [79, ['medium']]] as const) await finish(ids['Sales bot'], s, [...f]);
    expect((await api.post('/api/schedules', { tag: 'prod', cron: '0 3 * * *', timezone: 'Europe/Paris', catch_up: 'skip' })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 300));

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: svc.url });
    await context.addInitScript((t) => sessionStorage.setItem('gauntlet.token', t), token);
    page = await context.newPage();
    problems = watchProblems(page);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    if (svc) removeDir(svc.dataDir);
  });
  afterEach(() => expect(problems).toEqual([]));

  const rowText = async () => page.locator('table.fleet-table tbody tr th a').allTextContents();

  it('home lists every target with grade, change, open findings and next run; sorts and filters', async () => {
    await page.goto('/');
    await page.waitForURL('**/app/fleet');
    await page.locator('table.fleet-table tbody tr').nth(2).waitFor();
    // default: most open findings (by severity) first
    expect(await rowText()).toEqual(['Support bot', 'Sales bot', 'Staging bot']);
    const support = page.locator(`tr[data-target="${ids['Support bot']}"]`);
    expect(await support.locator('td').nth(0).textContent()).toContain('55');
    expect(await support.locator('td').nth(1).textContent()).toMatch(/^-19/);
    expect(await support.locator('.open-counts').textContent()).toBe('1 critical2 high1 medium0 low');
    expect(await support.locator('td').nth(3).locator('time').count()).toBe(1);
    expect(await page.locator(`tr[data-target="${ids['Staging bot']}"]`).textContent()).toContain('Not scheduled');
    await screenshot(page, 'fleet-01-home');

    await page.getByRole('button', { name: 'Change' }).click();
    expect(await page.locator('th[aria-sort="descending"]').textContent()).toContain('Change');
    expect(await rowText()).toEqual(['Sales bot', 'Staging bot', 'Support bot']);
    await page.getByRole('button', { name: 'Change' }).click();
    expect(await page.locator('th[aria-sort="ascending"]').count()).toBe(1);
    expect((await rowText())[0]).toBe('Support bot');

    await page.getByLabel('Tag').selectOption('staging');
    expect(await rowText()).toEqual(['Staging bot']);
    expect(page.url()).toContain('tag=staging');
    await page.getByLabel('Tag').selectOption('');
    await page.getByLabel('Name').fill('sales');
    expect(await rowText()).toEqual(['Sales bot']);
    await screenshot(page, 'fleet-02-filtered');
  });

  it('the target page charts score and open findings with uPlot, with the figures as a table', async () => {
    await page.goto(`/app/targets/${ids['Support bot']}`);
    const plot = page.locator('.trend-plot');
    await plot.locator('canvas').waitFor();
    expect(await plot.getAttribute('role')).toBe('img');
    expect(await plot.getAttribute('aria-label')).toMatch(/4 finished scans .*: 88 to 55 \(down 33\); open findings after triage now 4 \(critical 1, high 2\)/);
    // the text alternative has every point
    const rows = page.locator('.trend-table tbody tr');
    expect(await rows.count()).toBe(4);
    expect(await rows.nth(3).locator('td').allTextContents()).toEqual(['55', 'D-', '1', '2', '1', '0']);
    await page.locator('.trend').scrollIntoViewIfNeeded();
    const shot = await screenshot(page, 'fleet-03-trend');
    expect(shot).toMatch(/fleet-03-trend\.png$/);

    // look at what was drawn: the score line's blue and the critical series' red are on the canvas,
    // and the score line falls from left to right (its first blue pixels sit higher than its last)
    const drawn = await plot.locator('canvas').evaluate((c: HTMLCanvasElement) => {
      const ctx = c.getContext('2d')!;
      const { data, width, height } = ctx.getImageData(0, 0, c.width, c.height);
      const near = (i: number, r: number, g: number, b: number) => Math.abs(data[i] - r) < 40 && Math.abs(data[i + 1] - g) < 40 && Math.abs(data[i + 2] - b) < 40 && data[i + 3] > 200;
      let blue = 0;
      let red = 0;
      const blueYs: { x: number; y: number }[] = [];
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const i = (y * width + x) * 4;
          if (near(i, 0x1f, 0x5f, 0xbf)) (blue++, blueYs.push({ x, y }));
          if (near(i, 0xb0, 0x00, 0x20)) red++;
        }
      }
      const xs = blueYs.map((p) => p.x);
      const [minX, maxX] = [Math.min(...xs), Math.max(...xs)];
      const avgY = (pts: { y: number }[]) => pts.reduce((n, p) => n + p.y, 0) / Math.max(1, pts.length);
      const left = avgY(blueYs.filter((p) => p.x < minX + (maxX - minX) * 0.1));
      const right = avgY(blueYs.filter((p) => p.x > maxX - (maxX - minX) * 0.1));
      return { blue, red, left, right, width };
    });
    expect(drawn.blue).toBeGreaterThan(200);
    expect(drawn.red).toBeGreaterThan(20);
    expect(drawn.right).toBeGreaterThan(drawn.left); // canvas y grows downwards: a falling score
  });

  it('the schedules page creates, pauses and deletes a schedule', async () => {
    await page.goto('/app/schedules');
    await page.locator('table.schedules-table tbody tr').first().waitFor();
    expect(await page.locator('table.schedules-table tbody tr').count()).toBe(1);
    await page.getByLabel('What to scan').selectOption({ label: 'Staging bot' });
    await page.getByLabel('When (cron)').fill('15 2 * * 1-5');
    await page.getByLabel('Time zone').selectOption('UTC');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.locator('table.schedules-table tbody tr').nth(1).waitFor();
    const staging = page.locator('table.schedules-table tbody tr', { hasText: 'Staging bot' });
    expect(await staging.textContent()).toContain('15 2 * * 1-5');
    await screenshot(page, 'fleet-04-schedules');
    await staging.getByRole('button', { name: 'Pause' }).click();
    await staging.getByText('Paused').waitFor();
    await page.getByLabel('When (cron)').fill('not a cron');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.locator('.form-alert:not([hidden])').waitFor();
    expect(await page.locator('.form-alert').textContent()).toMatch(/cron/);

    // after each deploy: no time table asked for, none sent
    await page.getByLabel('Fires').selectOption('deploy');
    expect(await page.getByLabel('When (cron)').isVisible()).toBe(false);
    expect(await page.getByLabel('Time zone').isVisible()).toBe(false);
    await page.getByLabel('What to scan').selectOption({ label: 'every target tagged prod' });
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const onDeploy = page.locator('table.schedules-table tbody tr', { hasText: 'After each deploy' });
    await onDeploy.waitFor();
    expect(await onDeploy.textContent()).toContain('Next deploy');
    const created = (await api.get('/api/schedules')).body.schedules.find((x: any) => x.trigger === 'deploy');
    expect(created).toMatchObject({ tag: 'prod', cron: null, timezone: null, catch_up: null });
    // deleted again, so the fleet view's next runs below stay the cron schedules'
    expect((await api.delete(`/api/schedules/${created.id}`)).status).toBe(204);
  });

  it('a scheduler firing shows on the fleet view as the next run moving on', async () => {
    const scheduler = new Scheduler(
      { writePath: svc.runtime.writePath, docs: svc.runtime.infra.documents, config: svc.runtime.config, clock: { now: () => new Date(Date.now() + 2 * 24 * 3600_000), iso: () => new Date(Date.now() + 2 * 24 * 3600_000).toISOString() } as any, log: { info() {}, warn() {}, error() {} } },
      { tickMs: 60_000, graceMs: 3 * 24 * 3600_000, id: 'spec' },
    );
    expect((await scheduler.tick()).fired).toBeGreaterThanOrEqual(1);
    await page.goto('/app/fleet');
    await page.locator(`tr[data-target="${ids['Sales bot']}"]`).waitFor();
    // the prod schedule's firing started scans for both prod targets: they are scanning now
    const sales = (await api.get('/api/fleet')).body.targets.find((t: any) => t.target_id === ids['Sales bot']);
    expect(sales.scanning).toBe(true);
  });
});

function vuln(i: number, severity: Vulnerability['severity']): Vulnerability {
  return {
    id: randomUUID(), probe_id: `probe-${i}`, category: 'LLM01:2025', category_name: 'Prompt Injection', title: `Weakness ${i}`, severity, confidence: 0.9, technique: 'direct',
    converters: [], description: 'd', evidence: { turns: [{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }], detector: 'd', matched: null },
    remediation: 'r', references: [], phase: 'probe', found_at: new Date().toISOString(), fingerprint: `probe-${i}:LLM01:2025`, variants: [], how: 'Sent as written.', probes: [], conversations: 1, attempt_ids: [], supersedes: [], exposures: [],
  } as Vulnerability;
}

function score(overall: number, critical: number, high: number, medium: number, low: number): ScanScore {
  const grade = overall >= 87 ? 'B+' : overall >= 80 ? 'B-' : overall >= 77 ? 'C+' : overall >= 70 ? 'C-' : overall >= 60 ? 'D-' : 'D-';
  return { overall_score: overall, grade, category_scores: {}, critical_count: critical, high_count: high, medium_count: medium, low_count: low, scoring_version: 'test-1' };
}
