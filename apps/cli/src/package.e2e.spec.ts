import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { RunningLab, startLab } from '../../lab/src/lab';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..', '..');

/** the environment of a user's shell: none of the npm_* variables `npm test` sets for its own run */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));
  return { ...env, ...extra };
}

/** every package in an installed tree (node_modules and nested node_modules), with its install scripts */
function installed(dir: string): { name: string; scripts: string[] }[] {
  const out: { name: string; scripts: string[] }[] = [];
  const walk = (nm: string) => {
    if (!existsSync(nm)) return;
    for (const entry of readdirSync(nm)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@') ? readdirSync(join(nm, entry)).map((e) => join(nm, entry, e)) : [join(nm, entry)];
      for (const d of dirs) {
        if (!existsSync(join(d, 'package.json'))) continue;
        const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8'));
        out.push({ name: pkg.name, scripts: ['preinstall', 'install', 'postinstall'].filter((s) => pkg.scripts?.[s]) });
        walk(join(d, 'node_modules'));
      }
    }
  };
  walk(join(dir, 'node_modules'));
  return out;
}

/**
 * The app's lock file: the package from its tarball, and the dependencies it pulls in at the
 * versions and places the checkout's own lock gives them (found as node finds a module: the
 * nearest node_modules up the tree), each with the registry address and integrity a lock holds.
 */
function appLock(tarball: string, registry: string, manifest: { version: string; dependencies: Record<string, string>; bin?: unknown; engines?: unknown }): object {
  const { dependencies } = manifest;
  const root = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')).packages as Record<string, LockEntry>;
  const packages: Record<string, LockEntry> = {
    '': { name: 'my-app', version: '1.0.0', dependencies: { gauntlet: `file:${tarball}` } },
    'node_modules/gauntlet': { version: manifest.version, resolved: `file:${tarball}`, dependencies, bin: manifest.bin, engines: manifest.engines },
  };
  const place = (from: string, name: string): string => {
    for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
      const at = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (root[at]) return at;
      if (!dir) throw new Error(`the checkout's lock has no ${name} for ${from}`);
    }
  };
  const visit = (from: string, deps: Record<string, string> = {}) => {
    for (const name of Object.keys(deps)) {
      const at = place(from, name);
      if (packages[at]) continue;
      const { version, integrity, dependencies: own, bin, engines, hasInstallScript, license } = root[at];
      const base = name.split('/').pop();
      packages[at] = { version, resolved: `${registry.replace(/\/?$/, '/')}${name}/-/${base}-${version}.tgz`, integrity, dependencies: own, bin, engines, hasInstallScript, license };
      visit(at, own);
    }
  };
  visit('', dependencies);
  return { name: 'my-app', version: '1.0.0', lockfileVersion: 3, requires: true, packages };
}
/** drops every entry of an npm cache index that is not a tarball's */
function forgetPackageDocuments(index: string): void {
  for (const entry of readdirSync(index, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    const kept = readFileSync(file, 'utf8').split('\n').filter((line) => /"key":"[^"]*\.tgz"/.test(line));
    writeFileSync(file, kept.length ? `${kept.join('\n')}\n` : '');
  }
}
type LockEntry = { name?: string; version?: string; resolved?: string; integrity?: string; dependencies?: Record<string, string>; bin?: unknown; engines?: unknown; hasInstallScript?: boolean; license?: string };

/**
 * The package as a user gets it, and proof that it calls nobody: the tarball is made as
 * `npm pack` makes it (the build, then infra/bundle.js), installed into an empty folder with
 * `npm ci --offline` from a copy of the npm cache the checkout's install filled (its dependencies
 * pinned by a lock file made from the checkout's: a lock-file install fetches tarballs, never the
 * registry's package documents, so those need not be cached), every node
 * process of the install and of the CLI traced (test/support/no-network.js: a connection, UDP
 * send or DNS lookup for another host is logged and refused). better-sqlite3's install script is
 * given the binary already built on this machine as its local prebuild, so it neither downloads
 * nor compiles. Then `gauntlet --help` and a quick scan of the lab, from the installed package.
 */
describe('the npm package', () => {
  jest.setTimeout(600_000);
  let lab: RunningLab;
  const dir = mkdtempSync(join(tmpdir(), 'gauntlet-package-'));
  const trace = join(dir, 'network.log');
  const traced = (extra: Record<string, string> = {}) =>
    userEnv({ NODE_OPTIONS: `--require ${join(ROOT, 'test/support/no-network.js')}`, NO_NETWORK_LOG: trace, ...extra });
  beforeAll(async () => {
    lab = await startLab({ mode: 'vulnerable' });
  });
  afterAll(async () => {
    await lab?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs offline from its tarball without a network call or telemetry, and scans the lab with npx gauntlet', async () => {
    // the package is staged apart: bundling in place would replace the dist/ other tests' child processes load
    const stage = join(dir, 'stage');
    for (const f of ['package.json', 'bin', 'dist', 'schemas', 'docs', 'LICENSE', 'README.md', 'infra/bundle.js']) cpSync(join(ROOT, f), join(stage, f), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(stage, 'node_modules'));
    await run(process.execPath, [join(stage, 'infra/bundle.js'), stage], { maxBuffer: 16 * 1024 * 1024 });
    const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: stage, env: userEnv() });
    const tarball = join(dir, packed.stdout.trim().split('\n').pop()!);
    const listing = (await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 })).stdout.split('\n').filter(Boolean);
    for (const file of ['package/bin/gauntlet.js', 'package/dist/apps/cli/src/main.js', 'package/dist/apps/gauntlet/src/main.js', 'package/dist/apps/dashboard/index.html', 'package/schemas/gauntlet.schema.json', 'package/LICENSE', 'package/docs/cli.md', 'package/dist/libs/reports/fonts/NotoSansSC_400Regular.ttf.br']) {
      expect(listing).toContain(file);
    }
    // no tests, test support, sources, source maps or the lab
    expect(listing.filter((f) => /\.spec\.|\.map$|^package\/(test|apps|libs)\/|\/test\/|\/apps\/lab\//.test(f))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));

    // the cache the checkout's install filled (npm's default), copied: content is immutable, so hard links do
    const userCache = (await run('npm', ['config', 'get', 'cache'], { env: userEnv() })).stdout.trim();
    const registry = (await run('npm', ['config', 'get', 'registry'], { env: userEnv() })).stdout.trim();
    const cache = join(dir, 'cache');
    mkdirSync(join(cache, '_cacache'), { recursive: true });
    cpSync(join(userCache, '_cacache/index-v5'), join(cache, '_cacache/index-v5'), { recursive: true });
    await run('cp', ['-al', join(userCache, '_cacache/content-v2'), join(cache, '_cacache/content-v2')]).catch(() =>
      cpSync(join(userCache, '_cacache/content-v2'), join(cache, '_cacache/content-v2'), { recursive: true }),
    );
    // tarballs only: whether the user's cache holds the registry's package documents depends on how
    // it was filled (an install from a lock file fetches none), so the copy never does
    forgetPackageDocuments(join(cache, '_cacache/index-v5'));

    const sqlite = JSON.parse(readFileSync(join(ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')).version as string;
    const prebuilds = join(dir, 'prebuilds');
    mkdirSync(prebuilds);
    await run('tar', ['-czf', join(prebuilds, `better-sqlite3-v${sqlite}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`), '-C', join(ROOT, 'node_modules/better-sqlite3'), 'build/Release/better_sqlite3.node']);

    const app = join(dir, 'app');
    mkdirSync(app);
    const local = `../${basename(tarball)}`;
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'my-app', version: '1.0.0', private: true, dependencies: { gauntlet: `file:${local}` } }));
    writeFileSync(join(app, 'package-lock.json'), JSON.stringify(appLock(local, registry, manifest)));
    await run('npm', ['ci', '--offline', '--cache', cache, '--no-audit', '--no-fund', '--foreground-scripts'], {
      cwd: app, env: traced({ npm_config_better_sqlite3_local_prebuilds: prebuilds }), maxBuffer: 16 * 1024 * 1024, timeout: 300_000,
    });
    expect(readdirSync(join(app, 'node_modules/better-sqlite3/build/Release'))).toContain('better_sqlite3.node');
    // the whole install under 60 MB, with better-sqlite3's prebuilt binary as a user with a network
    // gets it (compiled from source instead, better-sqlite3 keeps ~15 MB of build leftovers of its own)
    const kilobytes = Number((await run('du', ['-sk', join(app, 'node_modules')])).stdout.split('\t')[0]);
    expect(kilobytes).toBeLessThan(60 * 1024);

    // only what the bundle cannot hold is installed, and nothing that reports home
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['better-sqlite3', 'playwright-core']);
    const tree = installed(app);
    expect(tree.map((p) => p.name)).not.toContain('@scarf/scarf');
    expect(tree.filter((p) => p.scripts.length).map((p) => p.name)).toEqual(['better-sqlite3']);

    const help = await run('npx', ['--no', '--', 'gauntlet', '--help'], { cwd: app, env: traced() });
    expect(help.stdout).toMatch(/scan \[options\] \[url\]/);

    const scan = await run('npx', ['--no', '--', 'gauntlet', 'scan', `${lab.url}/v1`, '--profile', 'quick', '--data-dir', join(app, 'data'), '--report', 'gauntlet.json', '--report', 'gauntlet.pdf'], {
      cwd: app, env: traced(), timeout: 120_000,
    }).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(scan.stderr).toBe('');
    expect(scan.stdout).toMatch(/^Grade F \(\d+\/100\)/m);
    expect(JSON.parse(readFileSync(join(app, 'gauntlet.json'), 'utf8')).scan.status).toBe('completed');
    expect(readFileSync(join(app, 'gauntlet.pdf')).subarray(0, 5).toString()).toBe('%PDF-');

    // the report's links point where `gauntlet serve` serves, never at port 0
    expect(readFileSync(join(app, 'gauntlet.json'), 'utf8')).not.toContain('localhost:0');
    expect(scan.stdout).toMatch(/^history: gauntlet serve --data-dir /m);

    // `gauntlet serve`: the dashboard, the API and its Swagger UI from the installed package
    const served = spawn(join(app, 'node_modules/.bin/gauntlet'), ['serve', '--port', '0', '--data-dir', join(app, 'data')], { cwd: app, env: traced(), stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`gauntlet serve printed no address: ${out}`)), 60_000);
        served.stdout.on('data', (d) => {
          out += d;
          const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        served.once('exit', (code) => reject(new Error(`gauntlet serve exited ${code}: ${out}`)));
      });
      for (const path of ['/', '/app/assets/js/main.js', '/app/assets/css/uPlot.min.css', '/api/docs', '/api/docs/swagger-ui-bundle.js', '/api/openapi.json']) {
        expect([path, (await fetch(url + path)).status]).toEqual([path, 200]);
      }
    } finally {
      const exited = new Promise((r) => served.once('exit', r));
      served.kill('SIGINT');
      await exited;
    }

    expect(existsSync(trace) ? readFileSync(trace, 'utf8') : '').toBe('');
  });
});
