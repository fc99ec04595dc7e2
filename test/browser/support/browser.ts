import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, chromium, ConsoleMessage, Page } from 'playwright';
import { findChromium } from '../../../libs/scanner/src/drivers/browser/chromium';

/** The Chromium browser scans use (findChromium: CHROMIUM_PATH, Playwright's, a system one), never downloaded. */
export async function launchChromium(): Promise<Browser> {
  const found = await findChromium();
  if (!found.found) throw new Error(found.message);
  return chromium.launch({
    executablePath: found.path,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export const SCREENSHOT_DIR = join(__dirname, '..', '..', '..', 'test-artifacts', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Records what a page must never do: throw, log an error, or trip the Content-Security-Policy.
 * A 4xx fetch logs "Failed to load resource" in Chromium: expected for endpoints that answer
 * 404/409 by design, so those lines are kept apart from real errors.
 */
export function watchProblems(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() !== 'error') return;
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
    problems.push(`console: ${msg.text()}`);
  });
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.type()} ${d.message()}`);
    void d.dismiss();
  });
  return problems;
}
