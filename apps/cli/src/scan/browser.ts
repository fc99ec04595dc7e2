/**
 * Where the browser for chat-page scans is. The one place the CLI decides it, so a finder that
 * looks in the usual places (a Playwright download, the system's Chromium or Chrome) can take
 * over here; until then the service's CHROMIUM_PATH setting and its default.
 */
export function chromiumPath(env: Record<string, string | undefined>): string {
  return env.CHROMIUM_PATH || '/usr/bin/chromium';
}
