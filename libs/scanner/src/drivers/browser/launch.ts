import type { Browser } from 'playwright';
import { TargetUnavailableError } from '../../chat-driver';
import { findChromium } from './chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // no crash handler: it daemonises away from the browser's process tree, nothing we would read
  '--disable-crash-reporter',
  '--disable-breakpad',
  // WebRTC would otherwise send UDP (STUN, TURN, media) around the proxy: with this policy and an
  // HTTP proxy it gathers no UDP candidates at all (the "force-" spelling alone did not hold)
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
  // Chromium resolves no name itself: pages go through the proxy, which resolves and checks;
  // prefetches, preconnects and anything else that would look a name up get "not found"
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
  // no secure-DNS lookups, no casting discovery (multicast UDP), no hints fetched for the browser
  '--disable-features=DnsOverHttps,MediaRouter,DialMediaRouteProvider,OptimizationHints',
];

/**
 * Chromium headless with the flags that keep a page inside the guarded proxy; `executablePath`
 * defaults to what findChromium finds (CHROMIUM_PATH, Playwright's Chromium, a system one).
 */
export async function launchChromium(executablePath?: string): Promise<Browser> {
  if (!executablePath) {
    const found = await findChromium();
    if (!found.found) throw new TargetUnavailableError(found.message, undefined, { kind: 'page', step: 'launch', install: found.install });
    executablePath = found.path;
  }
  // loaded on first use: every process that imports the scanner (the api, for the agent judge)
  // would otherwise pay for Playwright at start-up without ever opening a browser
  const { chromium } = await import('playwright');
  return chromium.launch({ executablePath, headless: true, chromiumSandbox: false, args: CHROMIUM_ARGS, timeout: 30_000 });
}
