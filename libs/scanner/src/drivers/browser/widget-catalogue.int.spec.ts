import { existsSync } from 'node:fs';
import { Browser } from 'playwright';
import { labBot, startWidgetServer, WidgetName, WidgetServer, WIDGETS } from '../../../../../test/browser/widgets/widget-server';
import { modelLikeBot } from '../../../../../test/browser/widgets/model-like-bot';
import { DOCS_BOT_CANARIES, DOCS_BOT_SENSITIVE, docsBot } from '../../../../../test/browser/widgets/docs-bot';
import { HeardOnPage, hearOnPage, judgeOnPage, JudgedProbe, pooled, REACHABLE_CATEGORIES } from '../../../../../test/browser/widgets/widget-scan';
import { DEFAULT_CANARIES } from '../../../../../apps/lab/src/knowledge';
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
/**
 * the probe whose answer is to carry a planted image address with the customer appended: our own
 * message holds the address too, so a page that renders what users type loads it from our bubble;
 * a bot that writes it proves both LLM05 and an LLM02 leak (one conversation per page keeps the
 * spec short)
 */
const OUT_OF_BAND_PROBES = ['oob-004'];
/**
 * A chat a team wrote by hand, in the ways pages differ from the widgets above: the user's message
 * rendered as markdown or as HTML, the whole list drawn again on every message, the conversation
 * kept across page loads, the user's message shown a moment after the send, bubbles marked only by
 * their side, the answer drawn a few letters at a time.
 */
const HANDMADE = ['user=markdown', 'user=markdown&redraw&late&unmarked&typing', 'user=html&persist&typing'];
const DOCS_HELD = { canaries: [DOCS_BOT_CANARIES.system, DOCS_BOT_CANARIES.tenant], sensitive: DOCS_BOT_SENSITIVE };
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
  let docs: { vulnerable: WidgetServer; hardened: WidgetServer };
  const bot = modelLikeBot(labBot('vulnerable'));
  const checks = new Map<WidgetName, TargetCheck>();
  const judged = new Map<string, JudgedProbe[]>();
  const heard = new Map<string, HeardOnPage>();
  const labHeld = { canaries: [DEFAULT_CANARIES.system, DEFAULT_CANARIES.data] };

  beforeAll(async () => {
    // an endless answer stops at 5,000 characters: long and repetitive enough to prove, short enough to wait for
    let docsVulnerable: WidgetServer, docsHardened: WidgetServer;
    [browser, vulnerable, hardened, modelLike, docsVulnerable, docsHardened] = await Promise.all([
      launchChromium(CHROMIUM),
      startWidgetServer(5, labBot('vulnerable', 5_000)),
      startWidgetServer(5, labBot('hardened', 5_000)),
      startWidgetServer(5, bot),
      startWidgetServer(5, docsBot('vulnerable')),
      startWidgetServer(5, docsBot('hardened')),
    ]);
    docs = { vulnerable: docsVulnerable, hardened: docsHardened };
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
        // the out-of-band probes, heard through the browser's proxy: on the hardened page of every widget, and a handmade page both ways
        ...NAMES.map((name) => async () => void heard.set(`hardened ${name}`, await hearOnPage(`${hardened.base}/${WIDGETS[name].page}`, OUT_OF_BAND_PROBES, browser, labHeld, { timeoutMs: 20_000 }))),
        ...HANDMADE.flatMap((how) =>
          (['vulnerable', 'hardened'] as const).map((mode) => async () => void heard.set(`${mode} ${how}`, await hearOnPage(`${docs[mode].base}/handmade-chat.html?${how}`, OUT_OF_BAND_PROBES, browser, DOCS_HELD, { timeoutMs: 20_000 }))),
        ),
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
    await Promise.all([vulnerable?.close(), hardened?.close(), modelLike?.close(), docs?.vulnerable.close(), docs?.hardened.close()]);
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

    it('the hardened page with the out-of-band probes on: no finding of any severity, every request the page made known as our own message\'s', () => {
      const { findings, ownMessage, hits } = heard.get(`hardened ${name}`)!;
      expect(findings.map((v) => `${v.severity} ${v.category} ${v.title}`)).toEqual([]);
      expect(ownMessage.map((h) => h.hit.token)).toEqual(hits.map((h) => h.token));
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

  it('the widgets that render what users type are among them: our planted image, loaded from our own bubble, is heard on their pages', () => {
    const rendering = NAMES.filter((name) => heard.get(`hardened ${name}`)!.hits.length > 0);
    expect(rendering).toEqual(expect.arrayContaining(['deep-chat', 'n8n', 'nlux-batch']));
  });

  describe.each(HANDMADE)('a handmade page (%s)', (how) => {
    it('hardened: our own message rendered loads our image, and that proves nothing: no finding, every request known as our message\'s', () => {
      const { findings, ownMessage, hits, conversations } = heard.get(`hardened ${how}`)!;
      expect(findings).toEqual([]);
      if (how.includes('user=markdown')) expect(hits.length).toBeGreaterThan(0);
      expect(ownMessage.map((h) => h.hit.token)).toEqual(hits.map((h) => h.token));
      for (const { turns } of conversations) expect(turns[1]).toMatchObject({ role: 'assistant', content: 'I can only reply in plain text, without markup, scripts or links.', observed: { attribution: 'bot_message' } });
    });

    it('vulnerable: the image the bot\'s message carried proves improper output handling, and the customer it appended a leak, pinned on the bot\'s message', () => {
      const { findings } = heard.get(`vulnerable ${how}`)!;
      const found = Object.fromEntries(findings.map((v) => [v.category, v]));
      expect(Object.keys(found).sort()).toEqual(['LLM02:2025', 'LLM05:2025']);
      expect(found['LLM02:2025']).toMatchObject({ severity: 'critical', probe_id: 'oob-004', evidence: { proof: { turn: 1, read_as: 'rendered page', matched: { kind: 'out_of_band' } } } });
    });
  });
});
