import { ChromiumEnvironment, findChromium, installCommand } from './chromium';

describe('findChromium', () => {
  const machine = (present: string[], over: Partial<ChromiumEnvironment> = {}): Partial<ChromiumEnvironment> => ({
    env: {},
    platform: 'linux',
    executable: (path) => present.includes(path),
    playwrightPath: async () => '/home/ada/.cache/ms-playwright/chromium-1200/chrome-linux/chrome',
    ...over,
  });
  const PLAYWRIGHT = '/home/ada/.cache/ms-playwright/chromium-1200/chrome-linux/chrome';

  it('given CHROMIUM_PATH set to a browser, when looking, then it is used before anything else', async () => {
    const found = await findChromium(machine(['/opt/chrome/chrome', PLAYWRIGHT, '/usr/bin/chromium'], { env: { CHROMIUM_PATH: '/opt/chrome/chrome' } }));
    expect(found).toEqual({ found: true, path: '/opt/chrome/chrome', source: 'CHROMIUM_PATH' });
  });

  it('given CHROMIUM_PATH set to nothing there, when looking, then it says so instead of silently taking another browser', async () => {
    const found = await findChromium(machine([PLAYWRIGHT], { env: { CHROMIUM_PATH: '/nope/chrome' } }));
    expect(found.found).toBe(false);
    expect(!found.found && found.message).toMatch(/CHROMIUM_PATH points at \/nope\/chrome/);
  });

  it('given Playwright installed its Chromium, when looking, then it comes before a system Chromium', async () => {
    expect(await findChromium(machine([PLAYWRIGHT, '/usr/bin/chromium']))).toEqual({ found: true, path: PLAYWRIGHT, source: 'playwright' });
  });

  it('given only a system Chromium or Chrome, when looking, then it is found', async () => {
    expect(await findChromium(machine(['/usr/bin/google-chrome-stable']))).toEqual({ found: true, path: '/usr/bin/google-chrome-stable', source: 'system' });
    const mac = await findChromium(machine(['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'], { platform: 'darwin' }));
    expect(mac).toMatchObject({ found: true, source: 'system' });
  });

  it('given Playwright cannot say where its browser is, when looking, then the system ones are still tried', async () => {
    const found = await findChromium(machine(['/usr/bin/chromium'], { playwrightPath: async () => { throw new Error('no playwright'); } }));
    expect(found).toEqual({ found: true, path: '/usr/bin/chromium', source: 'system' });
  });

  it('given no browser at all, when looking, then the answer names the one command for this system and what was tried', async () => {
    const linux = await findChromium(machine([]));
    expect(linux).toMatchObject({ found: false, install: 'npx playwright-core install --with-deps chromium' });
    expect(!linux.found && linux.message).toContain('npx playwright-core install --with-deps chromium');
    expect(!linux.found && linux.tried).toEqual(expect.arrayContaining([PLAYWRIGHT, '/usr/bin/chromium']));
    const mac = await findChromium(machine([], { platform: 'darwin' }));
    expect(!mac.found && mac.install).toBe('npx playwright-core install chromium');
    expect(installCommand('win32')).toBe('npx playwright-core install chromium');
  });

  it('on this machine, finds an executable or says what to run (never downloads)', async () => {
    const found = await findChromium();
    if (found.found) expect(found.path).toBeTruthy();
    else expect(found.message).toMatch(/npx playwright-core install/);
  });
});
