import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// the dashboard's shape, which the type check alone does not hold: pages share through widgets,
// and the service is reached only through the client typed by its OpenAPI document
const SRC = join(__dirname, 'src');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []));
const source = (file: string) => readFileSync(file, 'utf8');

describe('the dashboard sources', () => {
  it('pages import widgets and the client, never another page; a page in parts (pages/<page>.ts and pages/<page>/) imports only its own', () => {
    const PAGES = join(SRC, 'pages');
    const pages = files(PAGES);
    expect(pages.length).toBeGreaterThan(0);
    /** the page a file under pages/ belongs to: scan-detail for pages/scan-detail.ts and pages/scan-detail/findings.ts */
    const pageOf = (file: string) => relative(PAGES, file).split('/')[0].replace(/\.ts$/, '');
    const crossing = pages.flatMap((f) =>
      [...source(f).matchAll(/from '(\.{1,2}\/[^']+)'/g)]
        .map((m) => resolve(dirname(f), m[1]))
        .filter((target) => target.startsWith(PAGES + '/') && pageOf(target) !== pageOf(f))
        .map((target) => `${relative(SRC, f)} -> ${relative(SRC, target)}`),
    );
    expect(crossing).toEqual([]);
    // the rule reads imports: it sees the scan page's parts
    expect(pages.filter((f) => pageOf(f) === 'scan-detail').length).toBeGreaterThan(3);
  });

  it('widgets import no page', () => {
    expect(files(join(SRC, 'widgets')).filter((f) => /from '\.\.\/pages\//.test(source(f))).map((f) => relative(SRC, f))).toEqual([]);
  });

  it('only the client calls fetch, and no API address is written outside a typed call', () => {
    const rest = files(SRC).filter((f) => !f.endsWith(join('api', 'client.ts')));
    expect(rest.filter((f) => /\bfetch\(/.test(source(f))).map((f) => relative(SRC, f))).toEqual([]);
    // an address in quotes that is not the first argument of client.GET/POST/PATCH/PUT/DELETE
    const handBuilt = rest.flatMap((f) => [...source(f).matchAll(/(.{0,20})['"`]\/api\//g)].filter((m) => !/client\.(GET|POST|PATCH|PUT|DELETE)\($/.test(m[1])).map((m) => `${relative(SRC, f)}: ${m[0]}`));
    expect(handBuilt).toEqual([]);
  });
});
