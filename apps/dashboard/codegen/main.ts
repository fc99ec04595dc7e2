// `npm run dashboard:api`: writes the dashboard's typed client (apps/dashboard/src/api/) from the
// OpenAPI document the service serves. Run it after changing a DTO, a route or an enum; the spec
// beside this file fails until the committed files match the service again.
// `node dist/apps/dashboard/codegen/main.js DIR` writes them to DIR instead (the spec compares from there).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { renderClientFiles } from './openapi-client';
import { servedOpenApiDocument } from './service-document';

// run from dist/apps/dashboard/codegen (npm run dashboard:api) or from the sources
const ROOT = resolve(__dirname, __dirname.split(sep).includes('dist') ? '../../../..' : '../../..');
export const CLIENT_DIR = join(ROOT, 'apps/dashboard/src/api');

async function main(dir = CLIENT_DIR) {
  const files = await renderClientFiles(await servedOpenApiDocument());
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  process.stdout.write(`wrote ${Object.keys(files).join(', ')} in ${dir}\n`);
}

main(process.argv[2]).catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
