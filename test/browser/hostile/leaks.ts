import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createSocket, Socket as UdpSocket } from 'node:dgram';
import { openGuardedProxies } from '@gauntlet/outbound';

/** what this process holds that a browser operation could leave behind */
export interface Held {
  /** Chromium processes descending from this one */
  chromium: number;
  /** TCP sockets this process listens on */
  listeners: number;
  /** guarded proxies open (each is one of those listeners) */
  proxies: number;
}

function parentOf(pid: string): string | null {
  try {
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? null;
  } catch {
    return null;
  }
}

function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Chromium processes (browser, renderers, utilities, zygotes) whose ancestry reaches this process */
export function chromiumDescendants(root = String(process.pid)): string[] {
  const parents = new Map<string, string>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const parent = parentOf(pid);
    if (parent) parents.set(pid, parent);
  }
  const descends = (pid: string) => {
    for (let p: string | undefined = parents.get(pid), hops = 0; p && hops < 64; p = parents.get(p), hops++) if (p === root) return true;
    return false;
  };
  return [...parents.keys()].filter((pid) => descends(pid) && /chrom/i.test(commandOf(pid).split(' ')[0]));
}

/** TCP sockets in LISTEN state held by this process (its fds matched against /proc/net/tcp{,6}) */
export function listeningSockets(): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const m = readlinkSync(`/proc/self/fd/${fd}`).match(/^socket:\[(\d+)\]$/);
      if (m) inodes.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  let n = 0;
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A' && inodes.has(cols[9])) n++;
    }
  }
  return n;
}

export function held(): Held {
  return { chromium: chromiumDescendants().length, listeners: listeningSockets(), proxies: openGuardedProxies() };
}

/** polls until what is held is back to `baseline` (or `boundMs` pass), and says what it saw last */
export async function settledBack(baseline: Held, boundMs = 60_000): Promise<Held> {
  const until = Date.now() + boundMs;
  let now = held();
  while (Date.now() < until && (now.chromium > baseline.chromium || now.listeners > baseline.listeners || now.proxies > baseline.proxies)) {
    await new Promise((r) => setTimeout(r, 250));
    now = held();
  }
  return now;
}

/** a UDP listener on loopback that counts what reaches it (a STUN/TURN server a page aims at) */
export async function udpCounter(): Promise<{ port: number; datagrams: () => number; close(): Promise<void> }> {
  const socket: UdpSocket = createSocket('udp4');
  let n = 0;
  socket.on('message', () => n++);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, datagrams: () => n, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}
