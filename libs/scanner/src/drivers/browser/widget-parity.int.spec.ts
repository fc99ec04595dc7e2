import { existsSync } from 'node:fs';
import { ProbeAttempt, Vulnerability } from '@gauntlet/domain';
import { Browser } from 'playwright';
import { ChatMessage, WEAKNESSES, reply } from '../../../../../apps/lab/src/brain';
import { DEFAULT_CANARIES } from '../../../../../apps/lab/src/knowledge';
import { labChatDriver } from '../../../../../apps/lab/src/lab-client';
import { startLab } from '../../../../../apps/lab/src/lab';
import { startWidgetServer, WidgetServer } from '../../../../../test/browser/widgets/widget-server';
import { ChatDriver } from '../../chat-driver';
import { runScan } from '../../engine/run-scan';
import { BrowserChatDriver, launchChromium } from './browser-chat-driver';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`widget parity skipped: ${CHROMIUM} is missing (run infra/debian-packages.sh)`);
const describeWithChromium = haveChromium ? describe : describe.skip;

const canaries = [DEFAULT_CANARIES.system, DEFAULT_CANARIES.data];
/** the lab's model, every weakness on, answering long requests with 30,000 characters */
const labBot = (conversation: ChatMessage[]) => reply(conversation, { weaknesses: new Set(WEAKNESSES), canaries: DEFAULT_CANARIES, maxAnswerChars: 30_000 });

async function quickScan(driver: ChatDriver, url: string) {
  const attempts: ProbeAttempt[] = [];
  const vulnerabilities: Vulnerability[] = [];
  const outcome = await runScan({
    scanId: 'parity', seed: 'parity-seed', profile: 'quick', driver, signal: new AbortController().signal, now: () => new Date(),
    target: { id: 't', name: 'lab', url, scan_mode: 'browser', api_format: null, api_key: null, model: null, canaries, browser: null, http: null, max_requests_per_second: null },
    sink: { enterPhase: async () => {}, recordAttempt: async (a) => void attempts.push(a), recordVulnerability: async (v) => void vulnerabilities.push(v) },
    limits: { messageTimeoutMs: 30_000 },
  });
  return { outcome, attempts, vulnerabilities, categories: [...new Set<string>(vulnerabilities.map((v) => v.category))].sort() };
}

describeWithChromium('browser mode finds what api mode finds, behind each chat widget (quick profile)', () => {
  jest.setTimeout(300_000);
  let browser: Browser;
  let site: WidgetServer;
  let apiCategories: string[];

  beforeAll(async () => {
    const lab = await startLab({ mode: 'vulnerable', maxAnswerChars: 30_000 });
    try {
      apiCategories = (await quickScan(labChatDriver(lab.url), lab.url)).categories;
    } finally {
      await lab.close();
    }
    // 12 characters every 20 ms: a short answer in a moment, an endless one longer than the driver waits
    [browser, site] = await Promise.all([launchChromium(CHROMIUM), startWidgetServer(20, labBot)]);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  // the three scans run at once (one browser, a context per conversation): together they take little longer than one
  it('plain-chat.html, deep-chat.html and n8n-chat.html: every category api mode finds on the same bot', async () => {
    expect(apiCategories).toHaveLength(8);
    const pages = [
      { page: 'plain-chat.html', streams: true },
      { page: 'deep-chat.html', streams: true },
      { page: 'n8n-chat.html', streams: false },
    ];
    const drivers = pages.map(({ page }) => new BrowserChatDriver({ url: `${site.base}/${page}` }, { allowPrivate: true, browser, timeoutMs: 12_000, quietMs: 500, navigationTimeoutMs: 20_000 }));
    try {
      const scans = await Promise.all(pages.map(({ page }, i) => quickScan(drivers[i], `${site.base}/${page}`)));
      for (const [i, { outcome, categories, vulnerabilities }] of scans.entries()) {
        const { page, streams } = pages[i];
        expect([page, outcome]).toEqual([page, { kind: 'completed' }]);
        expect([page, categories]).toEqual([page, apiCategories]);
        // an endless answer streamed is seen still arriving when reading stops, however little the widget shows
        const endless = vulnerabilities.filter((v) => v.category === 'LLM10:2025').flatMap((v) => [v, ...v.variants]);
        if (streams) expect([page, endless.some((v) => v.evidence.turns.some((t) => t.observed?.cut_off_after_ms))]).toEqual([page, true]);
      }
    } finally {
      await Promise.all(drivers.map((d) => d.close()));
    }
  });
});
