import { existsSync } from 'node:fs';
import { Browser } from 'playwright';
import { ChatMessage, WEAKNESSES, reply } from '../../../../../apps/lab/src/brain';
import { DEFAULT_CANARIES } from '../../../../../apps/lab/src/knowledge';
import { labChatDriver } from '../../../../../apps/lab/src/lab-client';
import { startLab } from '../../../../../apps/lab/src/lab';
import { converseThrough } from '../../../../../test/browser/widgets/widget-scan';
import { startWidgetServer, WidgetServer } from '../../../../../test/browser/widgets/widget-server';
import { ChatDriver } from '../../chat-driver';
import { ruleDetector } from '../../detectors/rule-detector';
import { probeById } from '../../probes/catalogue';
import { renderProbe } from '../../probes/probe';
import { BrowserChatDriver, launchChromium } from './browser-chat-driver';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`widget parity skipped: ${CHROMIUM} is missing (run infra/debian-packages.sh)`);
const describeWithChromium = haveChromium ? describe : describe.skip;

/** the lab's model, every weakness on, answering requests for endless output with 30,000 characters */
const labBot = (conversation: ChatMessage[]) => reply(conversation, { weaknesses: new Set(WEAKNESSES), canaries: DEFAULT_CANARIES, maxAnswerChars: 30_000 });
/** a probe per testable category, and the output-handling probes whose markup a page renders rather than shows */
const PROBES = ['pi-001', 'sid-003', 'ioh-001', 'ioh-002', 'ioh-004', 'ea-002', 'spl-001', 'vew-001', 'mis-001', 'uc-001'].map((id) => probeById(id)!);
const SEED = 'parity-seed';

/** One probe through a driver, as the engine holds the conversation, judged by the rules. */
async function judgeThrough(driver: ChatDriver, probeId: string) {
  const probe = probeById(probeId)!;
  const rendered = renderProbe(probe, SEED);
  const turns = await converseThrough(driver, rendered.turns);
  return ruleDetector.judge(probe, turns, { canary: rendered.canary, targetCanaries: [DEFAULT_CANARIES.system, DEFAULT_CANARIES.data], entity: rendered.entity });
}

const categoriesFound = async (driver: ChatDriver) => {
  const found = new Set<string>();
  const proofs: Record<string, { outcome: string; detector: string; read_as?: string }> = {};
  for (const probe of PROBES) {
    const v = await judgeThrough(driver, probe.id);
    if (v.outcome === 'vulnerable' || v.outcome === 'partial') found.add(probe.category);
    proofs[probe.id] = { outcome: v.outcome, detector: v.detector, ...(v.read_as && { read_as: v.read_as }) };
  }
  return { categories: [...found].sort(), proofs };
};

describeWithChromium('browser mode finds what api mode finds, behind each chat widget', () => {
  jest.setTimeout(240_000);
  let browser: Browser;
  let site: WidgetServer;
  let api: string[];

  beforeAll(async () => {
    const lab = await startLab({ mode: 'vulnerable', maxAnswerChars: 30_000 });
    try {
      api = (await categoriesFound(labChatDriver(lab.url))).categories;
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

  it.each([
    ['plain-chat.html', true],
    ['deep-chat.html', true],
    ['n8n-chat.html', false],
  ])('%s: every category the api finds on the same bot', async (page, streams) => {
    expect(api).toHaveLength(8);
    const driver = new BrowserChatDriver({ url: `${site.base}/${page}` }, { allowPrivate: true, browser, timeoutMs: 8_000, quietMs: 500, navigationTimeoutMs: 20_000 });
    try {
      const { categories, proofs } = await categoriesFound(driver);
      expect(categories).toEqual(api);
      // an endless answer streamed is seen still arriving when reading stops, however little of it the widget shows
      if (streams) expect(proofs['uc-001']).toEqual({ outcome: 'vulnerable', detector: 'consumption' });
      // an exfiltration image: shown as text by a plain page, rendered by a markdown widget, which then beacons out
      expect(proofs['ioh-004']).toEqual(streams && page === 'plain-chat.html' ? { outcome: 'vulnerable', detector: 'markup' } : { outcome: 'vulnerable', detector: 'page-effects', read_as: 'rendered page' });
    } finally {
      await driver.close();
    }
  });
});
