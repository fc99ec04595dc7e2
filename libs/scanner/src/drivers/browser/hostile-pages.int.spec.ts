import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { BrowserChatDriver } from './browser-chat-driver';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`hostile page tests skipped: ${CHROMIUM} is missing (run infra/debian-packages.sh)`);
const describeWithChromium = haveChromium && process.platform === 'linux' ? describe : describe.skip;

/** what this process holds: every open file, and the sockets among them */
function held(): { files: number; sockets: number } {
  let files = 0;
  let sockets = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const link = readlinkSync(`/proc/self/fd/${fd}`);
      files++;
      if (link.startsWith('socket:')) sockets++;
    } catch {
      /* the fd readdir itself used, closed already */
    }
  }
  return { files, sockets };
}

const CHAT = (extra: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Chat</title></head><body>
<div id="log"></div>
<form id="f"><textarea id="box" placeholder="Type your message..."></textarea><button type="submit" aria-label="Send message">Send</button></form>
<script>
document.getElementById('f').addEventListener('submit', (e) => {
  e.preventDefault();
  const box = document.getElementById('box');
  const you = document.createElement('div'); you.className = 'msg user'; you.textContent = box.value;
  const bot = document.createElement('div'); bot.className = 'msg bot'; bot.textContent = 'Thanks, noted.';
  document.getElementById('log').append(you, bot); box.value = '';
});
</script>
${extra}
</body></html>`;

/**
 * Pages a hostile site serves, through real Chromium and the driver's guarded proxy: what the
 * process holds (sockets, open files) must be back at its baseline once the driver is closed,
 * whatever the page did, however many times.
 */
describeWithChromium('hostile pages hold nothing after the browser driver closes', () => {
  jest.setTimeout(90_000);
  let server: Server;
  let base: string;
  const streams = new Set<ServerResponse>();
  let baseline: { files: number; sockets: number };

  /** a response that never ends: a byte every 50 ms, for as long as someone holds it */
  const neverEnding = (res: ServerResponse, type: string, first = '') => {
    res.writeHead(200, { 'content-type': type });
    res.write(first);
    streams.add(res);
    const t = setInterval(() => res.write(' '), 50);
    res.on('close', () => (clearInterval(t), streams.delete(res)));
  };
  const huge = (res: ServerResponse, type: string, first = '') => {
    res.writeHead(200, { 'content-type': type, 'content-length': String(200 * 1024 * 1024) });
    res.write(first);
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (!res.destroyed && sent < 200 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
    };
    res.on('drain', pump);
    pump();
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/chat') return void res.writeHead(200, { 'content-type': 'text/html' }).end(CHAT(''));
      if (path === '/many') {
        const images = Array.from({ length: 40 }, (_, i) => `<img src="/never-ending-image/${i}">`).join('');
        const more = `<script async src="/slow-headers/script"></script><iframe src="/never-ending-page"></iframe><img src="/huge-image">
<script>fetch('/never-ending-fetch').then((r) => r.body.getReader().read()); new EventSource('/never-ending-events');</script>`;
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(CHAT(images + more));
      }
      if (path.startsWith('/slow-headers')) return; // never answers, not even headers
      if (path === '/never-ending-page') return neverEnding(res, 'text/html', '<!doctype html><html><body><p>loading');
      if (path === '/huge-page') return huge(res, 'text/html', '<!doctype html><html><body><p>');
      if (path === '/huge-image') return huge(res, 'image/png');
      if (path === '/never-ending-events') return neverEnding(res, 'text/event-stream', 'data: hi\n\n');
      if (path.startsWith('/never-ending')) return neverEnding(res, 'image/png');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // one harmless conversation first: what Playwright loads once for the process is not a leak
    await converse('/chat');
    baseline = await settled(held());
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const driverFor = (path: string) =>
    new BrowserChatDriver(
      { url: `${base}${path}` },
      { allowPrivate: true, chromiumPath: CHROMIUM, timeoutMs: 5_000, quietMs: 400, navigationTimeoutMs: 4_000, operationTimeoutMs: 3_000 },
    );

  /** opens the page, says one thing, and closes the driver; a page that cannot be read is just an error */
  async function converse(path: string): Promise<string> {
    const driver = driverFor(path);
    try {
      const conversation = await driver.openConversation();
      return await conversation.send('hello');
    } catch (err) {
      return `failed: ${(err as Error).name}: ${(err as Error).message}`;
    } finally {
      await driver.close();
    }
  }

  /** a bounded poll until what is held is back at `target` (closing is asynchronous), then the count */
  async function settled(target: { files: number; sockets: number }) {
    let now = held();
    for (let i = 0; i < 60 && (now.files > target.files || now.sockets > target.sockets); i++) {
      await new Promise((r) => setTimeout(r, 250));
      now = held();
    }
    return now;
  }

  it.each([
    ['many subresources that never finish (40 images, a frame, a fetch, an event stream, a huge image, slow headers)', '/many', 'Thanks, noted.'],
    ['a page whose body never ends', '/never-ending-page', /^failed/],
    ['a 200 MB page', '/huge-page', /^failed/],
    ['a page whose headers never come', '/slow-headers/page', /^failed/],
  ])('%s', async (_what, path, outcome) => {
    expect(await converse(path)).toEqual(typeof outcome === 'string' ? outcome : expect.stringMatching(outcome));
    const after = await settled(baseline);
    expect(after.sockets).toBeLessThanOrEqual(baseline.sockets);
    expect(after.files).toBeLessThanOrEqual(baseline.files);
    expect(streams.size).toBe(0);
  });

  it('holds nothing after the same hostile page twice more', async () => {
    await converse('/many');
    await converse('/many');
    const after = await settled(baseline);
    expect(after).toEqual({ files: expect.any(Number), sockets: expect.any(Number) });
    expect(after.sockets).toBeLessThanOrEqual(baseline.sockets);
    expect(after.files).toBeLessThanOrEqual(baseline.files);
    expect(streams.size).toBe(0);
  });
});
