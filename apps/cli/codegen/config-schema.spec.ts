import { readFileSync } from 'node:fs';
import { REGENERATE, renderConfigSchema, SCHEMA_FILE } from './config-schema';

// editors read the committed file: its value lists must be the registries' of today
describe('the JSON Schema committed in schemas/gauntlet.schema.json', () => {
  it('lists what the registries list today', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    if (renderConfigSchema(committed) !== committed) {
      throw new Error(`schemas/gauntlet.schema.json differs from the registries (API formats, profiles, severities): run \`${REGENERATE}\` and commit the result`);
    }
  });

  it('is refused when a registry has moved on', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    const stale = committed.replace('"openai", ', '');
    expect(renderConfigSchema(stale)).not.toBe(stale);
  });
});
