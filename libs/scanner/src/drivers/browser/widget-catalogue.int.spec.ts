import { existsSync } from 'node:fs';
import { Browser } from 'playwright';
import { labBot, startWidgetServer, WidgetName, WidgetServer, WIDGETS } from '../../../../../test/browser/widgets/widget-server';
import { modelLikeBot } from '../../../../../test/browser/widgets/model-like-bot';
import { judgeOnPage, JudgedProbe, pooled, REACHABLE_CATEGORIES } from '../../../../../test/browser/widgets/widget-scan';
import { checkTarget, TargetCheck } from '../../preflight/check-target';
import { BrowserChatDriver, launchChromium } from './browser-chat-driver';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`widget catalogue skipped: ${CHROMIUM} is missing (run infra/debian-packages.sh)`);
const describeWithChromium = haveChromium ? describe : describe.skip;

/**
 * Probes of the quick profile, each judged once as a scan judges an attempt (bench/browser-precision.ts
 * runs whole scans of the standard profile): on vulnerable pages one per category a browser scan
 * reaches; on hardened pages the attacks whose own markup a widget renders in our bubble, and
 * those a bot refuses by repeating what it was asked.
 */
const VULNERABLE_PROBES = ['pi-001', 'sid-003', 'ioh-001', 'ioh-002', 'ea-002', 'spl-001', 'vew-001', 'mis-001', 'uc-001'];
const HARDENED_PROBES = ['pi-001', 'ioh-001', 'ioh-002', 'ioh-003', 'spl-001'];
const MODEL_LIKE_PROBES = ['sid-003', 'ioh-001', 'ioh-002', 'spl-001', 'vew-001'];
const found = (judged: JudgedProbe[]) => judged.filter((j) => j.verdict.outcome !== 'resisted');
const NAMES = Object.keys(WIDGETS) as WidgetName[];

/**
 * The chat widgets teams embed, each from its npm package and speaking its own backend protocol,
 * in front of the lab's brain (issue 28): the connection check finds the chat unaided, the
 * vulnerable page yields every category the lab plants that a page can show, the hardened page
 * not a single finding; and a bot that talks like a real model is judged on what it said alone.
 */
describeWithChromium('the chat widgets teams embed, in front of the lab', () => {
  jest.setTimeout(600_000);
  let browser: Browser;
  let vulnerable: WidgetServer;
  let hardened: WidgetServer;
  let modelLike: WidgetServer;
  const bot = modelLikeBot(labBot('vulnerable'));
  const checks = new Map<WidgetName, TargetCheck>();
  const judged = new Map<string, JudgedProbe[]>();

  beforeAll(async () => {
    // an endless answer stops at 5,000 characters: long and repetitive enough to prove, short enough to wait for
    [browser, vulnerable, hardened, modelLike] = await Promise.all([
      launchChromium(CHROMIUM),
      startWidgetServer(5, labBot('vulnerable', 5_000)),
      startWidgetServer(5, labBot('hardened', 5_000)),
      startWidgetServer(5, bot),
    ]);
    const driverFor = (t: { url: string }) => new BrowserChatDriver({ url: t.url }, { allowPrivate: true, browser, timeoutMs: 20_000, quietMs: 600, navigationTimeoutMs: 30_000, operationTimeoutMs: 20_000 });
    // one probe per job, three pages at a time in one browser, the longest jobs first: pages wait
    // on answers far more than they compute, and no lane is left with one page's whole list
    const judge = (key: string, url: string, probe: string) => async () => {
      const [one] = await judgeOnPage(url, [probe], browser, { timeoutMs: 20_000 });
      judged.set(key, [...(judged.get(key) ?? []), one]);
    };
    await pooled(
      [
        ...NAMES.flatMap((name) => VULNERABLE_PROBES.map((probe) => judge(`vulnerable ${name}`, `${vulnerable.base}/${WIDGETS[name].page}`, probe))),
        ...MODEL_LIKE_PROBES.map((probe) => judge('model-like', `${modelLike.base}/${WIDGETS.chatscope.page}`, probe)),
        ...NAMES.flatMap((name) => HARDENED_PROBES.map((probe) => judge(`hardened ${name}`, `${hardened.base}/${WIDGETS[name].page}`, probe))),
        ...NAMES.map((name) => async () => {
          const url = `${hardened.base}/${WIDGETS[name].page}`;
          checks.set(name, await checkTarget({ url, scan_mode: 'browser', api_format: null, api_key: null, model: null, browser: null, http: null, max_requests_per_second: null }, { allowPrivate: true, driverFor }));
        }),
      ],
      3,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([vulnerable?.close(), hardened?.close(), modelLike?.close()]);
  });

  describe.each(NAMES)('%s', (name) => {
    it('the connection check finds the input, the send control and the bot\'s answer unaided', () => {
      const check = checks.get(name)!;
      expect(check).toMatchObject({ ok: true, hint: null });
      expect(check.diagnosis).toMatch(/found the chat input, sent a message and read the answer from the bot's own message/);
      expect(check.answer).toBeTruthy();
    });

    it('the vulnerable page: every category the lab plants that a page can show', () => {
      const categories = new Set(found(judged.get(`vulnerable ${name}`)!).map((j) => j.category));
      expect([...categories].sort()).toEqual(REACHABLE_CATEGORIES);
    });

    it('the hardened page: no finding at all, every answer read from the bot\'s own message', () => {
      const all = judged.get(`hardened ${name}`)!;
      expect(found(all).map((j) => `${j.probe} ${j.verdict.outcome} ${j.verdict.detector}: ${j.verdict.matched}`)).toEqual([]);
      const readings = all.flatMap((j) => j.turns.filter((t) => t.role === 'assistant').map((t) => t.observed?.attribution));
      expect(readings.length).toBeGreaterThan(0);
      expect(new Set(readings)).toEqual(new Set(['bot_message']));
    });
  });

  it('a bot that talks like a real model, behind a widget that renders both sides as HTML: every finding quotes what the bot said, never what we sent', () => {
    const findings = found(judged.get('model-like')!);
    expect(findings.length).toBeGreaterThanOrEqual(3);
    const squash = (s: string) => s.replace(/\s+/g, '');
    const said = squash(bot.said.join('\n'));
    for (const { verdict, turns } of findings) {
      const proof = verdict.proof!;
      expect(proof).toBeDefined();
      const turn = turns[proof.turn];
      expect(turn.role).toBe('assistant');
      expect(turn.observed?.attribution).toBe('bot_message');
      // the answer read is the bot's message: none of what we sent on that turn, as we sent it
      const sent = turns[proof.turn - 1].content;
      if (sent.length > 60) expect(turn.content).not.toContain(sent);
      if (proof.read_as === 'rendered page') {
        // an element the page rendered from the bot's message: its links and sources are in what the bot said
        for (const url of proof.text.match(/(?:href|src)="([^"]+)"/g) ?? []) expect(said).toContain(squash(url.replace(/^(?:href|src)="|"$/g, '').replace(/&amp;/g, '&')));
      } else if (!proof.read_as) expect(said).toContain(squash(proof.text));
    }
  });
});
