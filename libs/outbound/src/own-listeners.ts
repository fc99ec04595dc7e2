import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * The ports this process serves on (the api with its dashboard and /metrics, every guarded
 * proxy): never a destination for a scanned page or an outbound request, whatever
 * OUTBOUND_ALLOW_PRIVATE says. A page that could frame /metrics, or reach our api with a
 * user's cookies, would turn a scan into a way in; a page reaching our proxy would loop.
 *
 * Process-wide on purpose: every guard in the process must know every listener, and they are
 * registered where they open, far from where the guards are made.
 */
const ownPorts = new Map<number, number>();

/** registers a port this process listens on; the returned function forgets it */
export function registerOwnListener(port: number): () => void {
  if (!Number.isInteger(port) || port <= 0) return () => undefined;
  ownPorts.set(port, (ownPorts.get(port) ?? 0) + 1);
  let forgotten = false;
  return () => {
    if (forgotten) return;
    forgotten = true;
    const n = (ownPorts.get(port) ?? 1) - 1;
    if (n <= 0) ownPorts.delete(port);
    else ownPorts.set(port, n);
  };
}

/** the ports registered now (tests, diagnostics) */
export function ownListenerPorts(): number[] {
  return [...ownPorts.keys()];
}

/** addresses that reach this machine: loopback, unspecified, and every interface's own address */
function isThisMachine(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  const v4 = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  if (/^127\./.test(v4) || /^0\./.test(v4) || v4 === '::1' || v4 === '::' || /^0*:(0*:)*0*1?$/.test(v4)) return true;
  for (const list of Object.values(networkInterfaces())) {
    for (const nic of list ?? []) if (nic.address.toLowerCase() === v4) return true;
  }
  return false;
}

/**
 * Why connecting to `address`:`port` would reach one of this process's own listeners, or null.
 * `address` is what the socket would connect to, after DNS.
 */
export function ownListenerRefusal(address: string, port: number): string | null {
  if (!ownPorts.has(port)) return null;
  if (!isThisMachine(address)) return null;
  return `${address}:${port} is one of Gauntlet's own listeners (never reachable from a scanned page or an outbound request)`;
}
