import { existsSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { Browser } from 'playwright';
import { answerFor, startWidgetServer, WidgetServer } from '../../../../../test/browser/widgets/widget-server';
import { TargetProtocolError, TargetUnavailableError } from '../../chat-driver';
import { BrowserChatDriver, BrowserChatDriverOptions, launchChromium } from './browser-chat-driver';
import { SpendMeter } from '../../budget/meter';
import { meteredDriver } from '../metered-driver';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`browser driver tests skipped: ${CHROMIUM} is missing (run infra/debian-packages.sh)`);
const describeWithChromium = haveChromium ? describe : describe.skip;

describeWithChromium('BrowserChatDriver in real Chromium, no selectors configured', () => {
  jest.setTimeout(30_000);
  let browser: Browser;
  let site: WidgetServer;
  const drivers: BrowserChatDriver[] = [];

  beforeAll(async () => {
    [browser, site] = await Promise.all([launchChromium(CHROMIUM), startWidgetServer(120)]);
  });
  afterEach(async () => {
    await Promise.all(drivers.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const driverFor = (page: string, options: Partial<BrowserChatDriverOptions> = {}, selectors = {}) => {
    const driver = new BrowserChatDriver(
      { url: `${site.base}/${page}`, browser: selectors },
      { allowPrivate: true, browser, timeoutMs: 8_000, quietMs: 500, navigationTimeoutMs: 8_000, ...options },
    );
    drivers.push(driver);
    return driver;
  };

  it.each([
    ['plain-chat.html', 'plain'],
    ['deep-chat.html', 'deep-chat'],
    ['n8n-chat.html', 'n8n'],
  ] as const)('converses on %s: multi-turn in one page, streamed answers awaited to the end', async (page, widget) => {
    const conversation = await driverFor(page).openConversation();
    const first = 'What is the capital of France?';
    const second = 'And of Italy, "quoted" & <escaped>?';
    expect(await conversation.send(first)).toBe(answerFor(widget, 1, first));
    expect(await conversation.send(second)).toBe(answerFor(widget, 2, second));
    expect(site.prompts[widget].slice(-2)).toEqual([first, second]);
    await conversation.close();
  });

  it('a page that falls over mid-conversation: the conversation goes on in a fresh page, the earlier messages sent again (retries on the budget), and the browser\'s own words go to the log at debug', async () => {
    const logged: Array<Record<string, unknown>> = [];
    const meter = new SpendMeter();
    const driver = driverFor('handmade-chat.html?crash=driver-spec', { log: { debug: (fields) => void logged.push(fields) }, meter });
    const conversation = await meteredDriver(driver, meter).openConversation();
    const messages = ['Where is my parcel?', 'When will it arrive?', 'Can I change the address?'];
    const answers: string[] = [];
    for (const message of messages) answers.push(await conversation.send(message));
    await conversation.close();
    // the second message's answer came from a fresh page, after the first was sent there again
    expect(answers.slice(1)).toEqual([answerFor('handmade', 4, messages[1]), answerFor('handmade', 5, messages[2])]);
    expect(site.prompts.handmade.slice(-5)).toEqual([messages[0], messages[1], messages[0], messages[1], messages[2]]);
    // every message typed is a request on the scan's budget: the two typed again are its retries
    expect([meter.usage.requests, meter.retries]).toEqual([5, 2]);
    expect(logged.some((f) => typeof f.browser_error === 'string')).toBe(true);
  });

  it('gives each conversation a fresh context', async () => {
    const driver = driverFor('plain-chat.html');
    const a = await driver.openConversation();
    await a.send('first in a');
    const b = await driver.openConversation();
    // the plain page numbers answers by the history it keeps: a new context starts at 1
    expect(await b.send('first in b')).toBe(answerFor('plain', 1, 'first in b'));
    expect(await a.send('second in a')).toBe(answerFor('plain', 2, 'second in a'));
  });

  it('uses configured selectors instead of detection', async () => {
    const driver = driverFor('plain-chat.html', {}, { input_selector: '#box', send_selector: 'button[type=submit]', response_selector: '.msg.bot' });
    const conversation = await driver.openConversation();
    expect(await conversation.send('with selectors')).toBe(answerFor('plain', 1, 'with selectors'));
  });

  it('says which selector is wrong', async () => {
    const driver = driverFor('plain-chat.html', { navigationTimeoutMs: 1_000 }, { input_selector: '#nope' });
    await expect(driver.openConversation()).rejects.toThrow(/input_selector "#nope" matches nothing/);
  });

  it('reports a page that never answers as unavailable', async () => {
    const silent: Server = createServer((req, res) => {
      if (req.method === 'POST') return; // the chat backend hangs
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        '<textarea placeholder="Ask me"></textarea><button onclick="fetch(\'/x\',{method:\'POST\'});this.previousElementSibling.value=\'\'">Send</button>',
      );
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const driver = new BrowserChatDriver({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/` }, { allowPrivate: true, browser, timeoutMs: 1_500, quietMs: 300 });
      drivers.push(driver);
      const conversation = await driver.openConversation();
      await expect(conversation.send('hello?')).rejects.toThrow(TargetUnavailableError);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('reads an answer made only of markup, which shows no text, as the markup it added', async () => {
    // the page renders answers with innerHTML: a script tag shows nothing, yet it is the answer
    const page: Server = createServer((req, res) => {
      if (req.method === 'POST') return void res.writeHead(200, { 'content-type': 'text/plain' }).end("<script>document.title='X7QM'</script>");
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        '<ul id="m"></ul><input id="i" placeholder="Ask me"><button id="b">Send</button><script>' +
          "b.onclick=()=>{const li=document.createElement('li');li.textContent=i.value;m.appendChild(li);i.value='';" +
          "fetch('/x',{method:'POST'}).then(r=>r.text()).then(t=>{const a=document.createElement('li');a.innerHTML=t;m.appendChild(a);});}</script>",
      );
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const driver = new BrowserChatDriver({ url: `http://127.0.0.1:${(page.address() as AddressInfo).port}/` }, { allowPrivate: true, browser, timeoutMs: 5_000, quietMs: 300 });
      drivers.push(driver);
      const conversation = await driver.openConversation();
      expect(await conversation.send('status page snippet, please')).toContain("<script>document.title='X7QM'</script>");
    } finally {
      page.closeAllConnections();
      await new Promise((resolve) => page.close(resolve));
    }
  });

  it('refuses a loopback page unless private addresses are allowed', async () => {
    const driver = driverFor('plain-chat.html', { allowPrivate: false });
    await expect(driver.openConversation()).rejects.toThrow(/refused.*loopback/);
  });

  it('sends the page through the outbound guard, which refuses after DNS', async () => {
    // the machine's host name is not an IP literal nor "localhost", so the URL check lets it
    // pass; only the connect-time check, in the proxy Chromium goes through, can stop it
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (!addresses.length || addresses.some((a) => !/^127\.|^::1$/.test(a.address))) {
      console.warn(`skipped: ${name} does not resolve to loopback only`);
      return;
    }
    const before = site.prompts.plain.length;
    const driver = new BrowserChatDriver(
      { url: `${site.base.replace('127.0.0.1', name)}/plain-chat.html` },
      { allowPrivate: false, browser, navigationTimeoutMs: 5_000 },
    );
    drivers.push(driver);
    const err = await driver.openConversation().then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(TargetUnavailableError);
    expect(err?.message).toMatch(new RegExp(`refused by the outbound policy: ${name}: .*loopback`));
    expect(site.prompts.plain.length).toBe(before);
  });

  it('reports a page with no chat input as a protocol problem', async () => {
    const driver = driverFor('no-chat.html', { navigationTimeoutMs: 1_500 });
    await expect(driver.openConversation()).rejects.toThrow(TargetProtocolError);
  });
});
