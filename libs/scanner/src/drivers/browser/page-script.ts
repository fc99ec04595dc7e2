import { join } from 'node:path';

/**
 * The page script: the typed code in page/ (entry page/main.ts), bundled into one script a page
 * runs in every frame (plain ES2020, so no helper a page could lack leaks in). `npm run build`
 * (infra/build.js) bundles it beside this file as a module (`module.exports = "<script>"`), which
 * the package's bundle inlines like any module; running from source (the tests), it is bundled
 * from page/ on first use, the same way.
 */
export const PAGE_BUNDLE = { entry: 'page/main.ts', out: 'page-script.bundle.js', format: 'iife', target: 'es2020' } as const;

let script: string | null = null;

/** the page script as a page runs it (addInitScript, or evaluated in a frame that lacks it) */
export function pageScript(): string {
  script ??= built() ?? bundleFromSource();
  return script;
}

/** the script the build bundled beside this file; null when running from source */
function built(): string | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('./page-script.bundle.js') as string;
  } catch {
    return null;
  }
}

function bundleFromSource(): string {
  // esbuild is a build tool, only in a checkout: named, not written as a literal, so the package's
  // bundler leaves it out (the built service never comes here)
  const builder = 'esbuild';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require(builder) as typeof import('esbuild');
  const { entry, format, target } = PAGE_BUNDLE;
  return esbuild.buildSync({ entryPoints: [join(__dirname, entry)], bundle: true, format, target, write: false, logLevel: 'silent' }).outputFiles[0].text;
}
