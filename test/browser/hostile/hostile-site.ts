import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/**
 * A gallery of hostile chat pages, served on loopback: pages a tenant could register to make
 * our Chromium hang, leak, or reach what it must not. Most hold a working chat beside their
 * trap, so a check that gets past the trap still finds the chat; a few are nothing but trap.
 *
 * `forbidden` is a loopback address a page tries to reach around the policy (a port the test
 * registers as one of our own listeners, a UDP port for STUN); `stunPort` a UDP port.
 */
export interface HostilePage {
  name: string;
  path: string;
  /** true: the chat works despite the trap, so the check may succeed */
  chats: boolean;
}

export interface HostileSite {
  base: string;
  pages: HostilePage[];
  /** requests the site received, by path (a page reloading itself, popups opening) */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export interface Forbidden {
  /** a TCP listener standing for one of Gauntlet's own (api, /metrics) */
  ownUrl: string;
  /** a UDP port on loopback (a STUN/TURN server) */
  udpPort: number;
}

/** what the bots answer: the plain one never sends markup, the other answers with a javascript: link */
export const PLAIN_ANSWER = 'Thanks for your message. Our support team answers within a day.';
export const GREETING = 'Hello! I am the help desk bot. Ask me anything.';
export const LINK_ANSWER = 'Sure, open <a href="javascript:alert(\'bot-link\')">this link</a> to continue.';

/** a chat: the user's message shown as text or rendered as HTML, the bot's answer likewise */
function chat(opts: { echoHtml?: boolean; bot?: 'plain' | 'link'; extra?: string; head?: string } = {}): string {
  // as widgets with a markdown renderer and no sanitiser do: markdown links and images, then HTML
  const md = "String(text).replace(/!\\[([^\\]]*)\\]\\(([^)\\s]+)\\)/g, '<img alt=\"$1\" src=\"$2\">').replace(/\\[([^\\]]*)\\]\\(([^)\\s]+)\\)/g, '<a href=\"$2\">$1</a>')";
  const user = opts.echoHtml ? `li.innerHTML = ${md}` : 'li.textContent = text';
  const bot = opts.bot === 'link' ? 'a.innerHTML = t' : 'a.textContent = t';
  return `<!doctype html><html><head><title>Help</title>${opts.head ?? ''}</head><body>
<h1>Support chat</h1>
<ul id="m"></ul>
<textarea id="i" placeholder="Type your message"></textarea><button id="b">Send</button>
<script>
  document.getElementById('b').onclick = () => {
    const i = document.getElementById('i'); const m = document.getElementById('m');
    const text = i.value; i.value = '';
    const li = document.createElement('li'); li.className = 'user'; ${user}; m.appendChild(li);
    fetch('/chat?bot=${opts.bot ?? 'plain'}', { method: 'POST', body: text }).then((r) => r.text()).then((t) => {
      const a = document.createElement('li'); a.className = 'bot'; ${bot}; m.appendChild(a);
    });
  };
</script>
${opts.extra ?? ''}
</body></html>`;
}

export async function startHostileSite(forbidden: Forbidden): Promise<HostileSite> {
  const hits = new Map<string, number>();
  const hanging = new Set<Socket>();
  const pages: Record<string, { html: string; chats: boolean }> = {
    // frames that never get a context we can evaluate in (this hung the connection check)
    'file-frame': { chats: true, html: chat({ extra: '<iframe src="file:///etc/passwd"></iframe><iframe src="file:///proc/self/environ"></iframe>' }) },
    'chrome-frame': { chats: true, html: chat({ extra: '<iframe src="chrome://settings"></iframe><iframe src="chrome://version"></iframe><iframe src="view-source:http://example.com/"></iframe>' }) },
    // a frame whose server never answers, and a page whose own load never finishes
    'never-settling-frame': { chats: true, html: chat({ extra: '<iframe src="/hang"></iframe><img src="/hang?img">' }) },
    'redirect-loop': { chats: false, html: '' },
    'reload-loop': { chats: false, html: chat({ extra: '<script>setTimeout(() => location.reload(), 30)</script>' }) },
    'dialog-loop': { chats: false, html: chat({ extra: '<script>setTimeout(() => { for (;;) { alert("a"); confirm("c"); prompt("p"); } }, 0)</script>' }) },
    popups: { chats: true, html: chat({ extra: '<script>setInterval(() => { window.open("/popup", "_blank"); }, 50)</script>' }) },
    downloads: {
      chats: true,
      html: chat({ extra: '<a id="d" href="/download" download="x.bin">x</a><script>setInterval(() => document.getElementById("d").click(), 100)</script>' }),
    },
    webrtc: {
      chats: true,
      html: chat({
        extra: `<script>
          for (const urls of ['stun:127.0.0.1:${forbidden.udpPort}', 'turn:127.0.0.1:${forbidden.udpPort}?transport=udp']) {
            try {
              const pc = new RTCPeerConnection({ iceServers: [{ urls, username: 'u', credential: 'p' }] });
              pc.createDataChannel('x');
              pc.createOffer().then((o) => pc.setLocalDescription(o));
            } catch (e) {}
          }
          try { new WebTransport('https://127.0.0.1:${forbidden.udpPort}/').ready.catch(() => {}); } catch (e) {}
        </script>`,
      }),
    },
    workers: {
      chats: true,
      html: chat({
        extra: `<script>
          const src = 'fetch(${JSON.stringify(forbidden.ownUrl + '/from-worker')}).catch(() => {}); for (;;) {}';
          const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
          for (let n = 0; n < 4; n++) new Worker(url);
          try { new SharedWorker(url); } catch (e) {}
          if (navigator.serviceWorker) navigator.serviceWorker.register('/sw.js').catch(() => {});
        </script>`,
      }),
    },
    'huge-dom': {
      chats: true,
      html: chat({ extra: '<div id="big"></div><script>const b = document.getElementById("big"); let h = ""; for (let n = 0; n < 150000; n++) h += "<span>filler " + n + "</span>"; b.innerHTML = h;</script>' }),
    },
    'cpu-eater': { chats: false, html: chat({ extra: '<script>setTimeout(() => { for (;;) {} }, 0)</script>' }) },
    // reaching our own listeners and the network around the proxy
    'own-listener': {
      chats: true,
      html: chat({
        head: `<link rel="dns-prefetch" href="//gauntlet-prefetch.invalid"><link rel="preconnect" href="${forbidden.ownUrl}">`,
        extra: `<iframe src="${forbidden.ownUrl}/metrics"></iframe><img src="${forbidden.ownUrl}/img"><script>fetch(${JSON.stringify(forbidden.ownUrl + '/api/targets')}).catch(() => {}); const ws = new WebSocket(${JSON.stringify(forbidden.ownUrl.replace('http', 'ws') + '/ws')}); ws.onerror = () => {};</script>`,
      }),
    },
    // issue 19: the widget renders the user's message as HTML; the bot answers plainly, or with a link
    'echo-html': { chats: true, html: chat({ echoHtml: true, bot: 'plain' }) },
    'echo-html-link-bot': { chats: true, html: chat({ echoHtml: true, bot: 'link' }) },
    // issue 28: the bot's greeting, above our message, finishes loading only once we have sent (as
    // react-chatbot-kit's does when the first message goes out within its 750 ms): not the answer
    'late-greeting': {
      chats: true,
      html: chat({
        extra: `<script>
          const g = document.createElement('li'); g.className = 'bot'; g.textContent = '...'; document.getElementById('m').appendChild(g);
          document.getElementById('b').addEventListener('click', () => setTimeout(() => { g.textContent = ${JSON.stringify(GREETING)}; }, 60), { once: true });
        </script>`,
      }),
    },
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    if (url.pathname === '/chat') {
      const bot = url.searchParams.get('bot');
      req.resume();
      return void req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(bot === 'link' ? LINK_ANSWER : PLAIN_ANSWER), 150));
    }
    if (url.pathname === '/hang') {
      hanging.add(req.socket);
      return; // never answers
    }
    if (url.pathname === '/redirect-loop') return void res.writeHead(302, { location: `/redirect-loop?n=${Math.random()}` }).end();
    if (url.pathname === '/download') return void res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="x.bin"' }).end(Buffer.alloc(1 << 20));
    if (url.pathname === '/sw.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('self.addEventListener("fetch", () => {});');
    if (url.pathname === '/popup') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<script>window.open('/popup')</script>`);
    const page = pages[url.pathname.slice(1)];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    pages: Object.entries(pages).map(([name, p]) => ({ name, path: `/${name}`, chats: p.chats })),
    close: async () => {
      for (const s of hanging) s.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
