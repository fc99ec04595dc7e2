import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/** Where a Chromium came from, in the order they are tried. */
export type ChromiumSource = 'CHROMIUM_PATH' | 'playwright' | 'system';

export type ChromiumLookup =
  | { found: true; path: string; source: ChromiumSource }
  | {
      found: false;
      /** one line for the user: what is missing and the one command that installs it */
      message: string;
      /** the command for this system */
      install: string;
      /** every path looked at, in order */
      tried: string[];
    };

/** What the finder asks of the machine; injectable so the order is tested without installing browsers. */
export interface ChromiumEnvironment {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** is there an executable file at this path */
  executable(path: string): boolean;
  /** where Playwright's own Chromium would be (`chromium.executablePath()`), or null */
  playwrightPath(): Promise<string | null>;
}

/**
 * The one command that gets a browser on this system: playwright-core's own installer, the
 * version Gauntlet drives (the installed package has playwright-core, not playwright, and
 * `npx playwright` would fetch the newest playwright, whose Chromium build this version does not look for).
 */
export function installCommand(platform: NodeJS.Platform): string {
  // on Linux the browser also needs system libraries a bare server may lack
  return platform === 'linux' ? 'npx playwright-core install --with-deps chromium' : 'npx playwright-core install chromium';
}

/** the usual places a system Chromium or Chrome lives */
export function systemCandidates(platform: NodeJS.Platform, env: Record<string, string | undefined>): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      ...(env.HOME ? [join(env.HOME, 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome')] : []),
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => !!r);
    return roots.flatMap((root) => [join(root, 'Chromium', 'Application', 'chrome.exe'), join(root, 'Google', 'Chrome', 'Application', 'chrome.exe')]);
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium', '/usr/lib/chromium/chromium'];
}

/**
 * Finds the browser for browser scans: `CHROMIUM_PATH` when set (and only it: an operator who
 * named a browser means that one), else the Chromium Playwright installed, else a system
 * Chromium or Chrome. Never downloads anything; when none is there, says the command to run.
 */
export async function findChromium(machine: Partial<ChromiumEnvironment> = {}): Promise<ChromiumLookup> {
  const m: ChromiumEnvironment = { ...defaultEnvironment(), ...machine };
  const install = installCommand(m.platform);
  const configured = m.env.CHROMIUM_PATH?.trim();
  if (configured) {
    if (m.executable(configured)) return { found: true, path: configured, source: 'CHROMIUM_PATH' };
    return { found: false, install, tried: [configured], message: `CHROMIUM_PATH points at ${configured}, which is not an executable browser; fix it or unset it and run \`${install}\`` };
  }
  const tried: string[] = [];
  const bundled = await m.playwrightPath().catch(() => null);
  if (bundled) {
    tried.push(bundled);
    if (m.executable(bundled)) return { found: true, path: bundled, source: 'playwright' };
  }
  for (const path of systemCandidates(m.platform, m.env)) {
    tried.push(path);
    if (m.executable(path)) return { found: true, path, source: 'system' };
  }
  return { found: false, install, tried, message: `No Chromium found for browser scans; run \`${install}\` (or set CHROMIUM_PATH to a Chromium or Chrome)` };
}

function defaultEnvironment(): ChromiumEnvironment {
  return {
    env: process.env,
    platform: process.platform,
    executable: (path) => {
      try {
        accessSync(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    playwrightPath: async () => {
      // loaded on first use: Playwright is heavy and most processes never open a browser
      const { chromium } = await import('playwright');
      return chromium.executablePath() || null;
    },
  };
}
