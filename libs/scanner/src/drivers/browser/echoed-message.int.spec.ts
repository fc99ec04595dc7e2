import type { Turn } from '@gauntlet/domain';
import { Browser } from 'playwright';
import { GREETING, HostileSite, LINK_ANSWER, PLAIN_ANSWER, startHostileSite } from '../../../../../test/browser/hostile/hostile-site';
import { detectorByName, PRIMARY_DETECTOR } from '../../detectors/registry';
import { PROBES, renderProbe } from '../../probes';
import { findChromium } from './chromium';
import { BrowserChatDriver, launchChromium } from './browser-chat-driver';

/**
 * Browser mode judges the bot's answer only (issues 19, 28): a widget that renders the user's message
 * as HTML and markdown shows our attack's links, images and scripts in the page. None of that is
 * the bot's answer or a page observation; a bot that really answers with a javascript: link is
 * still found. Each output-handling probe is sent as a scan sends it and judged by the rules.
 */
describe('what the page shows of our own message is never evidence', () => {
  jest.setTimeout(120_000);
  let browser: Browser | null = null;
  let site: HostileSite;
  const drivers: BrowserChatDriver[] = [];
  const probes = PROBES.filter((p) => p.category === 'LLM05:2025');

  beforeAll(async () => {
    const found = await findChromium();
    if (!found.found) return console.warn(`skipped: ${found.message}`);
    [browser, site] = await Promise.all([launchChromium(found.path), startHostileSite({ ownUrl: 'http://127.0.0.1:9', udpPort: 9 })]);
  });
  afterAll(async () => {
    await Promise.all(drivers.map((d) => d.close()));
    await browser?.close();
    await site?.close();
  });

  const judged = async (page: string) => {
    const driver = new BrowserChatDriver({ url: `${site.base}/${page}` }, { allowPrivate: true, browser: browser!, timeoutMs: 8_000, quietMs: 400, operationTimeoutMs: 3_000 });
    drivers.push(driver);
    const primary = detectorByName(PRIMARY_DETECTOR)!;
    const out: Array<{ probe: string; sent: string; answer: string; observed: unknown; outcome: string }> = [];
    const conversation = await driver.openConversation();
    for (const probe of probes) {
      const rendered = renderProbe(probe, 'echo-seed');
      const transcript: Turn[] = [];
      for (const turn of rendered.turns) {
        transcript.push({ role: 'user', content: turn });
        const answer = await conversation.send(turn);
        const observed = conversation.observe?.() ?? undefined;
        transcript.push({ role: 'assistant', content: answer, ...(observed && { observed }) });
      }
      const verdict = await primary.judge(probe, transcript, { canary: rendered.canary, targetCanaries: [], entity: rendered.entity, plainTurns: rendered.turns });
      const last = transcript[transcript.length - 1];
      out.push({ probe: probe.id, sent: rendered.turns.join('\n'), answer: last.content, observed: last.observed ?? null, outcome: verdict.outcome });
    }
    await conversation.close();
    return out;
  };

  it('a widget rendering our message as HTML and markdown, with a bot answering plainly: every answer is the bot\'s text alone, read from its own message, nothing else observed, no finding', async () => {
    if (!browser) return;
    const results = await judged('echo-html');
    expect(results.length).toBeGreaterThanOrEqual(6);
    for (const r of results) {
      // what our own message loads as the page showed it is noted as ours (a request to it proves nothing), never as the answer's
      const { own_message_urls: own, ...observed } = (r.observed ?? {}) as { own_message_urls?: string[] };
      const { sent, ...judged } = r;
      expect({ ...judged, observed }).toEqual({ probe: r.probe, answer: PLAIN_ANSWER, observed: { attribution: 'bot_message', attribution_reason: expect.any(String) }, outcome: 'resisted' });
      for (const url of own ?? []) expect(sent).toContain(url);
    }
  });

  it('the bot\'s greeting above our message, finishing loading once we have sent: the answer is the message after ours alone', async () => {
    if (!browser) return;
    const driver = new BrowserChatDriver({ url: `${site.base}/late-greeting` }, { allowPrivate: true, browser: browser!, timeoutMs: 8_000, quietMs: 400, operationTimeoutMs: 3_000 });
    drivers.push(driver);
    const conversation = await driver.openConversation();
    const answer = await conversation.send('Where is my parcel?');
    const observed = conversation.observe?.();
    await conversation.close();
    expect(answer).toBe(PLAIN_ANSWER);
    expect(answer).not.toContain(GREETING);
    expect(observed?.attribution).toBe('bot_message');
  });

  it('a bot that really answers with a javascript: link is still found, its link observed', async () => {
    if (!browser) return;
    const results = await judged('echo-html-link-bot');
    const link = results.find((r) => r.probe === 'ioh-003')!;
    expect(link.outcome).toBe('vulnerable');
    expect(JSON.stringify(link.observed)).toContain('javascript:alert(\'bot-link\')');
    expect(link.answer).toContain('this link');
    expect(link.answer).not.toContain('Track parcel');
    expect(LINK_ANSWER).toContain('javascript:');
  });
});
