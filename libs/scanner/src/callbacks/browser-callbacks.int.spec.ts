import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { createChatDriver } from '../drivers';
import { ScanTarget } from '../engine/types';
import { probeById } from '../probes/catalogue';
import { hearCallbacks } from './hearing';
import { MemoryHits } from '../../testing/memory-hits';
import { CallbackListener, PAGE_SOURCE, proxyCallbackHook } from './listener';
import { CallbackPlanting } from './planting';
import { callbackKey } from './token';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const describeWithChromium = existsSync(CHROMIUM) ? describe : describe.skip;

/**
 * A chat page that renders markdown images in both bubbles (as deep-chat, n8n and nlux do: what the
 * user types shows rendered too), and a bot that writes what it is asked to end with (`/`) or
 * answers in plain text alone (`/?hardened`).
 */
const PAGE = `<!doctype html><html><head><title>Help</title></head><body>
<div id="log"></div>
<form id="f"><textarea id="box" placeholder="Type your message"></textarea><button type="submit" aria-label="Send">Send</button></form>
<script>
const log = document.getElementById('log');
const history = [];
const esc = (t) => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const markdown = (t) => esc(t).replace(/!\\[([^\\]]*)\\]\\((https?:[^)\\s]+)\\)/g, '<img alt="$1" src="$2">');
document.getElementById('f').addEventListener('submit', async (e) => {
  e.preventDefault();
  const box = document.getElementById('box');
  const text = box.value; box.value = '';
  const me = document.createElement('div'); me.className = 'user'; me.innerHTML = markdown(text); log.appendChild(me);
  history.push({ role: 'user', content: text });
  const res = await fetch('/chat' + location.search, { method: 'POST', body: JSON.stringify(history) });
  const answer = await res.text();
  history.push({ role: 'assistant', content: answer });
  const bot = document.createElement('div'); bot.className = 'bot'; bot.innerHTML = markdown(answer); log.appendChild(bot);
});
</script></body></html>`;

describeWithChromium('browser mode: an attacker\'s image rendered by a chat page is caught at the proxy', () => {
  jest.setTimeout(60_000);
  let site: Server;
  let siteUrl: string;

  beforeAll(async () => {
    site = createServer((req, res) => {
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const turns = JSON.parse(body) as { content: string }[];
          const asked = /!\[[^\]]*\]\([^)\s]+\)/.exec(turns[turns.length - 1].content);
          if (req.url?.includes('hardened')) return void res.end('I can only reply in plain text, without markup, scripts or links.');
          res.end(`Thanks for your message, we will look into it.${asked ? `\n\n${asked[0]}` : ''}`);
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });

  /** one attempt of the image probe as the engine delivers it: its address planted, the page's answer read and what the page showed of it */
  async function imageAttempt(page: string) {
    const key = callbackKey(randomBytes(32));
    // nothing listens there (a port Chromium does not refuse): only the proxy's hook can answer it
    const base = 'http://127.0.0.1:59999/oob';
    const store = new MemoryHits();
    const listener = new CallbackListener({ key, baseUrl: base, recorder: store, now: () => new Date() });
    const target: ScanTarget = { id: 't', name: 'page', url: `${siteUrl}${page}`, scan_mode: 'browser', api_format: null, api_key: null, model: null, canaries: [], browser: null, http: null, max_requests_per_second: null };
    const driver = createChatDriver(target, { allowPrivate: true, chromiumPath: CHROMIUM, timeoutMs: 10_000, callbacks: proxyCallbackHook(listener, base) });
    const planting = new CallbackPlanting({ baseUrl: base, key, inbox: store, graceMs: 500 }, 'browser-scan');
    const probe = probeById('oob-003')!;
    const turns = planting.plant('attempt-1', probe.turns, { probe, technique: probe.technique, converters: [], phase: 'probe' }, new Date());
    try {
      const conversation = await driver.openConversation();
      try {
        const answer = await conversation.send(turns[0]);
        const observed = conversation.observe?.() ?? undefined;
        planting.delivered('attempt-1', [{ role: 'user', content: turns[0] }, { role: 'assistant', content: answer, ...(observed && { observed }) }]);
      } finally {
        await conversation.close();
      }
    } finally {
      await driver.close();
    }
    return { recorded: store.recorded, heard: await hearCallbacks(planting, 'browser-scan', target, new AbortController().signal), base };
  }

  it('files an LLM05 finding proven by the image request, which never left Gauntlet\'s proxy, pinned on the bot\'s message that carried it', async () => {
    const { recorded, heard, base } = await imageAttempt('');
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded[0]).toMatchObject({ scan_id: 'browser-scan', attempt_id: 'attempt-1', method: 'GET', source: PAGE_SOURCE });
    expect(heard.findings).toHaveLength(1);
    expect(heard.findings[0]).toMatchObject({ category: 'LLM05:2025', severity: 'medium', probe_id: 'oob-003', evidence: { proof: { turn: 1, read_as: 'rendered page', text: expect.stringContaining(`${base}/`), matched: { kind: 'out_of_band', method: 'GET' } } } });
  });

  it('a hardened bot behind a page that renders what users type: the image our own message showed is heard, and is no finding', async () => {
    const { recorded, heard } = await imageAttempt('?hardened');
    expect(recorded.length).toBeGreaterThan(0);
    expect(heard.findings).toEqual([]);
    expect(heard.ownMessage.map((h) => h.probeId)).toEqual(recorded.map(() => 'oob-003'));
  });
});
