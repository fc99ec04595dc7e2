import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// The shape docs/architecture.md draws, held by the code itself: no two files import each other
// (directly or around a loop), the domain imports nothing of ours, a library never imports an app,
// and each library takes only what the drawing says it does.
const ROOT = resolve(__dirname, '..');
const ALIASES: Record<string, string> = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths as Record<string, string[]>).map(([alias, [target]]) => [alias, target]),
);

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(full);
    return /\.(ts|mts)$/.test(e.name) && !/\.d\.ts$|\.spec\.ts$/.test(e.name) ? [full] : [];
  });

const FILES = ['apps', 'libs'].flatMap((d) => sources(join(ROOT, d)));

/**
 * what a file imports: static imports and re-exports (`import type` too: a type loop is still a
 * loop to a reader), side-effect imports and `await import(...)` (loaded late, still a dependency)
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)) {
    const target = resolveImport(file, m[1] ?? m[2] ?? m[3]);
    if (target) out.push(target);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else if (ALIASES[spec]) base = join(ROOT, ALIASES[spec]);
  else return null; // a package
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return base.endsWith('.js') && existsSync(base.replace(/\.js$/, '.ts')) ? base.replace(/\.js$/, '.ts') : null;
}

const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)]));
const rel = (f: string) => relative(ROOT, f);
const libraryOf = (f: string) => /^libs\/([^/]+)\//.exec(rel(f))?.[1] ?? null;

/**
 * Circles between the parts of one folder, at every depth inside a library or app: a part is a
 * sub-folder a reader takes in whole (src/engine, src/drivers/api, testing) or a file beside them
 * (server.ts importing app.module.ts while the module imports http/ is a circle too). Circles
 * between two files are the file check's; between libraries, the drawing's.
 */
function folderCircles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, targets] of graph) {
    for (const t of targets) {
      const [a, b] = [rel(file).split('/'), rel(t).split('/')];
      // the deepest folder holding both; its parts that hold each are the two ends of the arrow
      let shared = 0;
      while (shared < Math.min(a.length, b.length) - 1 && a[shared] === b[shared]) shared++;
      const betweenFiles = shared === a.length - 1 && shared === b.length - 1;
      if (shared < 2 || betweenFiles) continue;
      const [from, to] = [a.slice(0, shared + 1).join('/'), b.slice(0, shared + 1).join('/')];
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${rel(file)} -> ${rel(t)}`);
    }
  }
  const state = new Map<string, 'open' | 'done'>();
  const circles: string[] = [];
  const visit = (part: string, path: string[]) => {
    state.set(part, 'open');
    for (const next of edges.get(part)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        circles.push(loop.slice(1).map((to, i) => edges.get(loop[i])!.get(to)!).join(', '));
      } else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(part, 'done');
  };
  for (const part of edges.keys()) if (!state.has(part)) visit(part, [part]);
  return circles;
}

describe('the structure of the code', () => {
  it('reads the imports it checks', () => {
    expect(FILES.length).toBeGreaterThan(300);
    expect([...GRAPH.values()].flat().length).toBeGreaterThan(1000);
  });

  it('has no import circle', () => {
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (file: string, path: string[]) => {
      state.set(file, 'open');
      for (const next of GRAPH.get(file) ?? []) {
        if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), next].map(rel).join(' -> '));
        else if (!state.has(next)) visit(next, [...path, next]);
      }
      state.set(file, 'done');
    };
    for (const file of FILES) if (!state.has(file)) visit(file, [file]);
    expect(circles).toEqual([]);
  });

  it('has no circle between the folders of one library or app, at any depth', () => {
    expect(folderCircles(GRAPH)).toEqual([]);
  });

  it('would see a circle between folders however deep, and a file beside a folder it is in a circle with', () => {
    const planted = new Map([
      // two drivers of one folder that import each other through a file each
      [join(ROOT, 'libs/x/src/drivers/api/a.ts'), [join(ROOT, 'libs/x/src/drivers/browser/b.ts')]],
      [join(ROOT, 'libs/x/src/drivers/browser/b.ts'), [join(ROOT, 'libs/x/src/drivers/browser/c.ts')]],
      [join(ROOT, 'libs/x/src/drivers/browser/c.ts'), [join(ROOT, 'libs/x/src/drivers/api/d.ts')]],
      // the server importing the module that imports the server's folder
      [join(ROOT, 'apps/y/src/http/server.ts'), [join(ROOT, 'apps/y/src/app.module.ts')]],
      [join(ROOT, 'apps/y/src/app.module.ts'), [join(ROOT, 'apps/y/src/http/guard.ts')]],
      // one direction only: no circle
      [join(ROOT, 'libs/x/src/probes/p.ts'), [join(ROOT, 'libs/x/src/detectors/rules/r.ts')]],
    ]);
    expect(folderCircles(planted)).toEqual([
      'libs/x/src/drivers/api/a.ts -> libs/x/src/drivers/browser/b.ts, libs/x/src/drivers/browser/c.ts -> libs/x/src/drivers/api/d.ts',
      'apps/y/src/http/server.ts -> apps/y/src/app.module.ts, apps/y/src/app.module.ts -> apps/y/src/http/guard.ts',
    ]);
  });

  it('points every arrow down: the domain imports nothing of ours, a library no app', () => {
    const up = FILES.flatMap((f) =>
      (GRAPH.get(f) ?? [])
        .filter((t) => (rel(f).startsWith('libs/') && rel(t).startsWith('apps/')) || (libraryOf(f) === 'domain' && libraryOf(t) !== 'domain'))
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(up).toEqual([]);
  });

  it('lets one app into another through its front door only: the CLI and the code generator take the service from apps/gauntlet/src/embedded', () => {
    const appOf = (f: string) => /^apps\/([^/]+)\//.exec(rel(f))?.[1] ?? null;
    const FRONT_DOOR = 'apps/gauntlet/src/embedded/index.ts';
    const through = FILES.flatMap((f) =>
      (GRAPH.get(f) ?? [])
        .filter((t) => appOf(f) && appOf(t) && appOf(f) !== appOf(t) && rel(t) !== FRONT_DOOR)
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(through).toEqual([]);
  });

  it('keeps each library to the libraries the architecture drawing gives it', () => {
    const allowed: Record<string, string[]> = {
      domain: [],
      eventstore: [],
      messaging: ['eventstore'],
      outbound: [],
      auth: ['eventstore'],
      subscriptions: ['messaging', 'eventstore'],
      'read-models': ['subscriptions', 'messaging', 'eventstore', 'domain'],
      assessment: ['domain'],
      reports: ['assessment', 'domain'],
      scanner: ['outbound', 'domain'],
      webhooks: ['read-models', 'subscriptions', 'messaging', 'eventstore', 'outbound', 'domain'],
      testing: ['domain'],
    };
    const beyond = FILES.filter((f) => rel(f).includes('/src/')).flatMap((f) => {
      const from = libraryOf(f);
      if (!from) return [];
      return (GRAPH.get(f) ?? [])
        .map(libraryOf)
        .filter((to): to is string => to !== null && to !== from && !(allowed[from] ?? []).includes(to))
        .map((to) => `${rel(f)} -> ${to}`);
    });
    expect(beyond).toEqual([]);
  });
});
