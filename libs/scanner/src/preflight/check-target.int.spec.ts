import { existsSync } from 'node:fs';
import { Browser } from 'playwright';
import { answerFor, startWidgetServer, WidgetServer } from '../../../../test/browser/widgets/widget-server';
import { BrowserChatDriver, launchChromium } from '../drivers/browser/browser-chat-driver';
import { ChatTarget } from '../drivers/create-chat-driver';
import { fakeApi, json, KEY } from '../drivers/api/testing/fake-api';
import { alternativeUrls, CHECK_MESSAGE, checkTarget } from './check-target';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const describeWithChromium = existsSync(CHROMIUM) ? describe : describe.skip;

const apiTarget = (url: string, extra: Partial<ChatTarget> = {}): ChatTarget => ({
  scan_mode: 'api', api_format: 'openai', url, api_key: KEY, model: 'm', http: null, browser: null, max_requests_per_second: null, ...extra,
});

describe('the connection check of an API target, against a local fake', () => {
  const api = fakeApi();
  const completion = { choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there!' } }] };

  it('one request, no retries: a 503 is reported as it is', async () => {
    api.state.handler = (_r, res) => json(res, 503, { error: 'down' });
    const result = await checkTarget(apiTarget(`${api.state.base}/v1`), { allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 503, endpoint: `${api.state.base}/v1/chat/completions` });
    expect(result.diagnosis).toMatch(/HTTP 503/);
    expect(api.state.received).toHaveLength(1);
  });

  it('after a 404, tries the endpoints the URL might have meant and names the one that answers', async () => {
    api.state.handler = (r, res) => (r.path === '/gateway/v1/chat/completions' ? json(res, 200, completion) : json(res, 404, { error: 'no route' }));
    const result = await checkTarget(apiTarget(`${api.state.base}/gateway`), { allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 404, endpoint: `${api.state.base}/gateway/chat/completions` });
    expect(result.hint).toBe(`${api.state.base}/gateway/v1/chat/completions answers: set url to it.`);
    expect(api.state.received.map((r) => r.path)).toEqual(['/gateway/chat/completions', '/gateway/v1/chat/completions']);
  });

  it('names the format an answer is in when it is not the one configured', async () => {
    api.state.handler = (_r, res) => json(res, 200, { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hi' }] });
    const result = await checkTarget(apiTarget(`${api.state.base}/v1`), { allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 200, hint: 'Set api_format to anthropic.' });
  });

  it('lists alternatives that change the endpoint, and none for formats whose URL says it all', () => {
    expect(alternativeUrls({ api_format: 'openai', url: 'https://h.example/api', model: null })).toEqual(['https://h.example/api/v1', 'https://h.example/']);
    expect(alternativeUrls({ api_format: 'openai', url: 'https://h.example/v1/chat/completions', model: null })).toEqual([]);
    expect(alternativeUrls({ api_format: 'http', url: 'https://h.example/x', model: null })).toEqual([]);
  });
});

describeWithChromium('the connection check of a chat page, in real Chromium', () => {
  jest.setTimeout(60_000);
  let browser: Browser;
  let site: WidgetServer;

  beforeAll(async () => {
    [browser, site] = await Promise.all([launchChromium(CHROMIUM), startWidgetServer(120)]);
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const check = (page: string) => {
    const target: ChatTarget = { scan_mode: 'browser', api_format: null, url: `${site.base}/${page}`, api_key: null, model: null, http: null, browser: null, max_requests_per_second: null };
    return checkTarget(target, {
      allowPrivate: true,
      driverFor: (t) => new BrowserChatDriver({ url: t.url, browser: null }, { allowPrivate: true, browser, timeoutMs: 8_000, quietMs: 500, navigationTimeoutMs: 4_000, screenshotOnFailure: true }),
    });
  };

  it('finds input, send and answer, and returns a screenshot of what it found', async () => {
    const result = await check('plain-chat.html');
    expect(result).toMatchObject({ ok: true, status: null, hint: null });
    expect(result.answer).toBe(answerFor('plain', 1, CHECK_MESSAGE));
    expect(result.diagnosis).toMatch(/found the chat input, sent a message and read the answer/);
    expect(result.screenshot!.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it('on a page without a chat, says to set the selectors and shows the page', async () => {
    const result = await check('no-chat.html');
    expect(result.ok).toBe(false);
    expect(result.diagnosis).toMatch(/no chat input was found/);
    expect(result.hint).toMatch(/browser.input_selector/);
    expect(result.screenshot!.subarray(1, 4).toString()).toBe('PNG');
  });
});
