import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// the dashboard's shape, which the type check alone does not hold: pages share through widgets,
// and the service is reached only through the client typed by its OpenAPI document
const SRC = join(__dirname, 'src');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []));
const source = (file: string) => readFileSync(file, 'utf8');

describe('the dashboard sources', () => {
  it('pages import widgets and the client, never another page', () => {
    const pages = files(join(SRC, 'pages'));
    expect(pages.length).toBeGreaterThan(0);
    const crossing = pages.filter((f) => /from '\.\/|from '\.\.\/pages\//.test(source(f))).map((f) => relative(SRC, f));
    expect(crossing).toEqual([]);
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
