import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RunningLab, startLab } from '../../lab/src/lab';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');

/** the environment of a user's shell: none of the npm_* variables `npm test` sets for its own run */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  return { ...env, DO_NOT_TRACK: '1', SCARF_ANALYTICS: 'false', ...extra };
}

/**
 * The package as a user gets it: `npm pack`, installed into an empty folder from the tarball,
 * then `npx gauntlet --help` and a quick scan of the lab. The dependencies come from npm's cache
 * (--prefer-offline); the one native module, better-sqlite3, is given the binary already built on
 * this machine as its prebuild (prebuild-install's local prebuilds), so the run does not compile
 * SQLite again.
 */
describe('the npm package', () => {
  jest.setTimeout(600_000);
  let lab: RunningLab;
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-package-'));
  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable' });
  });
  afterAll(async () => {
    await lab?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs from its tarball into an empty folder and scans the lab with npx gauntlet', async () => {
    // dist/ is built once by the suite (prepack would rebuild it under the other tests' child processes)
    const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, env: userEnv() });
    const tarball = join(dir, packed.stdout.trim().split('\n').pop()!);
    expect(existsSync(tarball)).toBe(true);
    const listing = (await run('tar', ['-tzf', tarball])).stdout.split('\n');
    for (const file of ['package/bin/gauntlet.js', 'package/dist/apps/cli/src/main.js', 'package/dist/apps/gauntlet/src/main.js', 'package/schemas/gauntlet.schema.json', 'package/LICENSE', 'package/docs/cli.md']) {
      expect(listing).toContain(file);
    }
    expect(listing.filter((f) => f.endsWith('.spec.js') || f.endsWith('.map') || f.startsWith('package/test/') || f.startsWith('package/apps/'))).toEqual([]);

    const sqlite = JSON.parse(readFileSync(join(ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')).version as string;
    const prebuilds = join(dir, 'prebuilds');
    mkdirSync(prebuilds);
    await run('tar', ['-czf', join(prebuilds, `better-sqlite3-v${sqlite}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`), '-C', join(ROOT, 'node_modules/better-sqlite3'), 'build/Release/better_sqlite3.node']);

    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-app', version: '1.0.0', private: true, overrides: { 'better-sqlite3': sqlite } }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
      cwd: app, env: userEnv({ npm_config_better_sqlite3_local_prebuilds: prebuilds }), maxBuffer: 16 * 1024 * 1024, timeout: 540_000,
    });
    expect(readdirSync(join(app, 'node_modules/better-sqlite3/build/Release'))).toContain('better_sqlite3.node');

    const help = await run('npx', ['--no', '--', 'gauntlet', '--help'], { cwd: app, env: userEnv() });
    expect(help.stdout).toMatch(/scan \[options\] \[url\]/);

    const scan = await run('npx', ['--no', '--', 'gauntlet', 'scan', `${lab.url}/v1`, '--profile', 'quick', '--data-dir', join(app, 'data'), '--report', 'gauntlet.json'], {
      cwd: app, env: userEnv(), timeout: 120_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(scan.stderr).toBe('');
    expect(scan.stdout).toMatch(/^Grade F \(\d+\/100\)/m);
    expect(JSON.parse(readFileSync(join(app, 'gauntlet.json'), 'utf8')).scan.status).toBe('completed');
  });
});
