#!/usr/bin/env node
// Compiles apps/, libs/, bench/ and test/support/ to dist/ with swc (seconds, where tsc takes minutes on 2 cores),
// rewriting the @gauntlet/* path aliases to relative requires so plain `node` runs the output.
// The dashboard's browser code (apps/dashboard/src) is bundled by esbuild instead, into
// dist/apps/dashboard/assets/js/main.js beside the page and styles copied from apps/dashboard,
// and so is the browser driver's page script (libs/scanner/src/drivers/browser/page).
// Type checking is `npm run typecheck` (tsc --noEmit, both tsconfigs), run by the test command.
const fs = require('fs');
const path = require('path');
const swc = require('@swc/core');
const esbuild = require('esbuild');
const { aliases } = require('./paths');

const root = path.resolve(__dirname, '..');
const out = path.join(root, 'dist');
// test/support: the guarded chatbots written apart from the scanner, which bench/guarded-bots.ts scans;
// test/browser/widgets: the chat widgets' pages and their backends, which bench/browser-precision.ts scans
const roots = ['apps', 'libs', 'bench', 'bin', 'test/support', 'test/browser/widgets'];
const skip = /(\.spec\.ts|\.d\.ts)$/;
const DASHBOARD_SRC = path.join(root, 'apps/dashboard/src');

function* walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (full === DASHBOARD_SRC) continue;
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

const paths = Object.fromEntries(Object.entries(aliases()).map(([a, t]) => [a, [t]]));

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  const jobs = [];
  for (const r of roots) {
    const dir = path.join(root, r);
    if (!fs.existsSync(dir)) continue;
    for (const file of walk(dir)) {
      const rel = path.relative(root, file);
      const dest = path.join(out, rel);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      if (file.endsWith('.ts') && !skip.test(file)) {
        jobs.push(
          swc
            .transformFile(file, {
              jsc: {
                parser: { syntax: 'typescript', decorators: true },
                transform: { legacyDecorator: true, decoratorMetadata: true },
                target: 'es2022',
                baseUrl: root,
                paths,
              },
              module: { type: 'commonjs' },
              sourceMaps: true,
            })
            .then((res) => {
              const js = dest.replace(/\.ts$/, '.js');
              fs.writeFileSync(js, res.code + `\n//# sourceMappingURL=${path.basename(js)}.map`);
              if (res.map) fs.writeFileSync(js + '.map', res.map);
            }),
        );
      } else if (!file.endsWith('.ts')) {
        fs.copyFileSync(file, dest);
      }
    }
  }
  jobs.push(bundleDashboard());
  await Promise.all(jobs);
  await bundlePageScript();
}

/**
 * The page script the browser driver runs in every frame of a scanned page: page/ bundled as
 * page-script.ts says (PAGE_BUNDLE: one IIFE, plain ES2020), written beside the compiled
 * page-script.js as a module whose export is the script (so the built service never needs
 * esbuild, and the package's bundle inlines it like any module).
 */
async function bundlePageScript() {
  const dir = path.join(out, 'libs/scanner/src/drivers/browser');
  const { PAGE_BUNDLE } = require(path.join(dir, 'page-script.js'));
  const { outputFiles } = await esbuild.build({
    entryPoints: [path.join(root, 'libs/scanner/src/drivers/browser', PAGE_BUNDLE.entry)],
    bundle: true,
    format: PAGE_BUNDLE.format,
    target: PAGE_BUNDLE.target,
    write: false,
    logLevel: 'warning',
  });
  fs.writeFileSync(path.join(dir, PAGE_BUNDLE.out), `// the browser driver's page script, bundled from page/ at build\nmodule.exports = ${JSON.stringify(outputFiles[0].text)};\n`);
}

/**
 * The dashboard as one ES module the page loads (script-src 'self': no inline code, no CDN), and
 * beside its styles the charting library's stylesheet, the one file of uplot the page needs (so
 * uplot is not a package the installed service depends on). The packages the bundle inlines are
 * listed in bundle-inputs.json for the licence file infra/bundle.js writes.
 */
async function bundleDashboard() {
  const css = path.join(out, 'apps/dashboard/assets/css');
  fs.mkdirSync(css, { recursive: true });
  fs.copyFileSync(path.join(path.dirname(require.resolve('uplot', { paths: [root] })), 'uPlot.min.css'), path.join(css, 'uPlot.min.css'));
  const { metafile } = await esbuild.build({
    entryPoints: [path.join(DASHBOARD_SRC, 'main.ts')],
    outfile: path.join(out, 'apps/dashboard/assets/js/main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    tsconfig: path.join(root, 'apps/dashboard/tsconfig.json'),
    logLevel: 'warning',
    metafile: true,
  });
  const inputs = Object.keys(metafile.inputs).map((i) => path.resolve(root, i));
  fs.writeFileSync(path.join(out, 'apps/dashboard/bundle-inputs.json'), JSON.stringify(inputs));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
