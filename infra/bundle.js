#!/usr/bin/env node
// The package's runtime, made small and quiet (run by prepack after the build, on dist/ in place):
// - the CLI and the service entry points are bundled with esbuild, their dependencies inlined, so an
//   install of the tarball fetches only what cannot be inlined (RUNTIME_DEPENDENCIES below) instead
//   of ~330 packages; @nestjs/swagger comes inlined too, so swagger-ui-dist and its install-time
//   download analytics (@scarf/scarf) never reach a user's machine; the Swagger UI files the API
//   serves are copied beside the bundle instead;
// - the seven Noto fonts the PDF renderer embeds (libs/reports/src/pdf-fonts.ts) are copied into
//   dist/libs/reports/fonts, brotli-compressed, instead of shipping the font packages' 18 weights.
// Each bundled module keeps its own __dirname (rewritten to its place relative to the bundle), so
// code that finds files beside itself (schemas, the dashboard, fonts) works as it does unbundled.
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const esbuild = require('esbuild');

const root = path.resolve(process.argv[2] || path.join(__dirname, '..'));
const dist = path.join(root, 'dist');
/** one bundle holds the CLI and the service; the service's entry file becomes a line that starts it from there */
const CLI = 'apps/cli/src/main.js';
const SERVICE = 'apps/gauntlet/src/main.js';
/** native code and the browser driver: installed as packages (see package.json "dependencies") */
const EXTERNAL = ['better-sqlite3', 'playwright-core'];
const SWAGGER_UI = ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css', 'index.css', 'favicon-16x16.png', 'favicon-32x32.png', 'oauth2-redirect.html', 'oauth2-redirect.js', 'LICENSE', 'NOTICE'];


/** __dirname/__filename of a dist module, as seen from the bundle it lands in */
function placed(file, outDir) {
  const rel = (p) => JSON.stringify(path.relative(outDir, p).split(path.sep).join('/'));
  return {
    dirname: `require("path").join(__dirname, ${rel(path.dirname(file))})`,
    filename: `require("path").join(__dirname, ${rel(file)})`,
  };
}

function plugins(entry, service, outDir) {
  return [
    {
      name: 'gauntlet-places',
      setup(build) {
        build.onLoad({ filter: /\.js$/ }, (args) => {
          if (!args.path.startsWith(dist + path.sep)) return undefined;
          let code = fs.readFileSync(args.path, 'utf8');
          const p = placed(args.path, outDir);
          code = code.replace(/\b__dirname\b/g, p.dirname).replace(/\b__filename\b/g, p.filename);
          // the CLI runs its main when node started the bundle; the service when its entry file asked for it
          if (args.path === entry) code = code.replace(/require\.main === module/g, 'require.main === __gauntletBundleModule');
          if (args.path === service) code = code.replace(/require\.main === module/g, 'globalThis.__gauntletRunService === true');
          return { contents: code, loader: 'js', resolveDir: path.dirname(args.path) };
        });
        // the Swagger UI's files sit beside the bundle, not in a swagger-ui-dist package
        build.onResolve({ filter: /^swagger-ui-dist(\/absolute-path\.js)?$/ }, () => ({ path: 'swagger-ui-dist', namespace: 'gauntlet-swagger-ui' }));
        build.onLoad({ filter: /.*/, namespace: 'gauntlet-swagger-ui' }, () => ({
          contents: `const p = () => require("path").join(__dirname, ${JSON.stringify(path.relative(outDir, path.join(dist, 'vendor/swagger-ui')).split(path.sep).join('/'))}); module.exports = p; module.exports.getAbsoluteFSPath = p; module.exports.absolutePath = p;`,
          loader: 'js',
        }));
        // fontkit decodes WOFF2 with the `brotli` package's decoder written in JavaScript (0.47 MB of the
        // bundle); node's zlib has brotli built in
        build.onResolve({ filter: /^brotli\/decompress(\.js)?$/ }, () => ({ path: 'brotli-decompress', namespace: 'gauntlet-brotli' }));
        build.onLoad({ filter: /.*/, namespace: 'gauntlet-brotli' }, () => ({
          contents: `module.exports = (buffer) => require("zlib").brotliDecompressSync(buffer);`,
          loader: 'js',
        }));
        // optional packages a dependency tries and does without (Nest's microservices, mongodb's compressors...): left as requires
        build.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.namespace !== 'file' || EXTERNAL.some((e) => args.path === e || args.path.startsWith(e + '/'))) return undefined;
          try {
            require.resolve(args.path, { paths: [args.resolveDir] });
            return undefined;
          } catch {
            return { path: args.path, external: true };
          }
        });
      },
    },
  ];
}

async function bundle() {
  const entry = path.join(dist, CLI);
  const service = path.join(dist, SERVICE);
  const outDir = path.dirname(entry);
  const result = await esbuild.build({
    stdin: {
      contents: `module.exports = require('./${path.basename(entry)}');
module.exports.runService = () => { globalThis.__gauntletRunService = true; require(${JSON.stringify('./' + path.relative(outDir, service).split(path.sep).join('/'))}); };`,
      resolveDir: outDir,
      sourcefile: 'gauntlet-package-entry.js',
    },
    outfile: entry,
    // the metafile's input paths are relative to this (thirdPartyLicences resolves them against it)
    absWorkingDir: root,
    allowOverwrite: true,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // class names stay: the CQRS bus and Nest's injector read them
    keepNames: true,
    minify: true,
    legalComments: 'none',
    // the browser driver is playwright-core: the `playwright` package adds only its test runner
    alias: { playwright: 'playwright-core' },
    external: EXTERNAL,
    banner: { js: 'const __gauntletBundleModule = module;' },
    logLevel: 'error',
    metafile: true,
    plugins: plugins(entry, service, outDir),
  });
  return result;
}

/** the licence texts of the packages inlined into the bundles (the CLI's and the dashboard's), in one file beside them */
function thirdPartyLicences(inputs) {
  const dirs = new Set();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) dirs.add(fs.realpathSync(path.resolve(root, m[1])));
  }
  const out = [];
  for (const dir of [...dirs].sort()) {
    const { name, version, license } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    out.push(`${name}@${version} (${typeof license === 'string' ? license : 'see its package'})\n${file ? '\n' + fs.readFileSync(path.join(dir, file), 'utf8').trim() + '\n' : ''}`);
  }
  return out.join('\n' + '-'.repeat(72) + '\n\n');
}

async function main() {
  if (!fs.existsSync(path.join(dist, CLI))) throw new Error('dist/ is not built: run `npm run build` first');
  // the font files come from the compiled renderer, which names them
  const { FONT_FILES: fonts } = require(path.join(dist, 'libs/reports/src/pdf-fonts.js'));
  const { outputFiles, metafile } = await bundle();
  for (const f of outputFiles) fs.writeFileSync(f.path, f.contents);
  fs.writeFileSync(path.join(dist, SERVICE), `'use strict';\n// the service is bundled with the CLI (infra/bundle.js)\nrequire(${JSON.stringify(path.relative(path.dirname(path.join(dist, SERVICE)), path.join(dist, CLI)).split(path.sep).join('/'))}).runService();\n`);
  const dashboardInputs = JSON.parse(fs.readFileSync(path.join(dist, 'apps/dashboard/bundle-inputs.json'), 'utf8'));
  fs.writeFileSync(path.join(dist, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicences([...Object.keys(metafile.inputs), ...dashboardInputs]));

  const ui = path.join(dist, 'vendor/swagger-ui');
  fs.mkdirSync(ui, { recursive: true });
  const uiSrc = path.dirname(require.resolve('swagger-ui-dist/package.json', { paths: [root] }));
  for (const f of SWAGGER_UI) fs.copyFileSync(path.join(uiSrc, f), path.join(ui, f));

  const fontDir = path.join(dist, 'libs/reports/fonts');
  fs.mkdirSync(fontDir, { recursive: true });
  for (const f of fonts) {
    const src = require.resolve(f, { paths: [root] });
    const packed = zlib.brotliCompressSync(fs.readFileSync(src), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: fs.statSync(src).size } });
    fs.writeFileSync(path.join(fontDir, path.basename(f) + '.br'), packed);
  }
  // each family's OFL text with its copyright line
  const families = [...new Set(fonts.map((f) => f.split('/').slice(0, 2).join('/')))];
  fs.writeFileSync(path.join(fontDir, 'LICENSE'), families.map((f) => `${f}\n\n${fs.readFileSync(path.join(path.dirname(require.resolve(f + '/package.json', { paths: [root] })), 'LICENSE_FONT'), 'utf8').trim()}\n`).join('\n' + '-'.repeat(72) + '\n\n'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
