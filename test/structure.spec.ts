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

/** what a file imports (static imports and re-exports; `import type` too: a type loop is still a loop to a reader) */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)) {
    const target = resolveImport(file, m[1]);
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

  it('has no circle between the folders of one library or app', () => {
    // a folder is a part a reader takes in whole (src/engine, src/http, testing); a file straight
    // in src/ stands for itself, so http/server.ts importing app.module.ts while the module
    // imports http/ is a circle too
    const folderOf = (f: string) => {
      const parts = rel(f).split('/');
      const inner = parts[2] === 'src' ? 3 : 2;
      return parts.length > inner + 1 ? parts.slice(0, inner + 1).join('/') : rel(f);
    };
    const packageOf = (f: string) => rel(f).split('/').slice(0, 2).join('/');
    const edges = new Map<string, Map<string, string>>();
    for (const [file, targets] of GRAPH) {
      for (const t of targets) {
        const [from, to] = [folderOf(file), folderOf(t)];
        if (from === to || packageOf(file) !== packageOf(t)) continue;
        if (!edges.has(from)) edges.set(from, new Map());
        if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${rel(file)} -> ${rel(t)}`);
      }
    }
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (folder: string, path: string[]) => {
      state.set(folder, 'open');
      for (const next of edges.get(folder)?.keys() ?? []) {
        if (state.get(next) === 'open') {
          const loop = [...path.slice(path.indexOf(next)), next];
          circles.push(loop.slice(1).map((to, i) => edges.get(loop[i])!.get(to)!).join(', '));
        } else if (!state.has(next)) visit(next, [...path, next]);
      }
      state.set(folder, 'done');
    };
    for (const folder of edges.keys()) if (!state.has(folder)) visit(folder, [folder]);
    expect(circles).toEqual([]);
  });

  it('points every arrow down: the domain imports nothing of ours, a library no app', () => {
    const up = FILES.flatMap((f) =>
      (GRAPH.get(f) ?? [])
        .filter((t) => (rel(f).startsWith('libs/') && rel(t).startsWith('apps/')) || (libraryOf(f) === 'domain' && libraryOf(t) !== 'domain'))
        .map((t) => `${rel(f)} -> ${rel(t)}`),
    );
    expect(up).toEqual([]);
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
