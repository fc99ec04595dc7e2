// The editors' JSON Schema of gauntlet.yaml (schemas/gauntlet.schema.json) takes its value lists from
// the registries: the API formats (names and labels), the scan profiles and the severities; and a
// scan's budget fields (max_requests, max_tokens, max_cost, price_in, price_out) from their owner in
// the domain, at the top of the file and on each target; a target's `tools` from their owner (the
// domain's target/target-tools.ts, the CLI's forms). The rest
// of the file is written by hand; `npm run dashboard:api` rewrites the lists in it (this file, run
// from dist/), and the spec beside it fails until the committed file matches the registries again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { API_FORMAT_SPECS, BUDGET_FIELD_NAMES, budgetFieldSchema, PROFILES, SEVERITIES, toolsDescription, toolsSchema } from '@gauntlet/domain';

export const REGENERATE = 'npm run dashboard:api';
const ROOT = resolve(__dirname, __dirname.split(sep).includes('dist') ? '../../../..' : '../../..');
export const SCHEMA_FILE = join(ROOT, 'schemas/gauntlet.schema.json');

/** `schemaText` (the committed schema) with every registry's list as the registry has it today. */
export function renderConfigSchema(schemaText: string, formats = API_FORMAT_SPECS): string {
  const schema = JSON.parse(schemaText);
  const { definitions } = schema;
  definitions.target.properties.format = {
    enum: formats.map((f) => f.name),
    description: `the API's shape (default openai): ${formats.map((f) => `${f.name}, ${f.label}`).join('; ')}; ignored with browser`,
  };
  definitions.target.properties.tools = { description: toolsDescription('cli'), ...withoutFormats(toolsSchema('cli')) };
  definitions.profile.enum = [...PROFILES];
  definitions.customProbe.properties.severity.enum = [...SEVERITIES];
  for (const field of BUDGET_FIELD_NAMES) {
    const { description, ...rules } = budgetFieldSchema(field);
    schema.properties[field] = { ...rules, description: `${description}; every target's unless it says its own` };
    definitions.target.properties[field] = { ...rules, description: `${description}; this target's (before the file's own)` };
  }
  return `${json(schema, '')}\n`;
}

/** a schema without `format`: the file's reader knows none (its patterns say what a format would) */
function withoutFormats(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(withoutFormats);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k, v]) => !(k === 'format' && typeof v === 'string')).map(([k, v]) => [k, withoutFormats(v)]));
}

/** JSON as a person would lay it out: what fits on a line stays on it. */
function json(value: unknown, indent: string): string {
  const flat = JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/\[ /g, '[').replace(/ \]/g, ']');
  if (indent.length + flat.length <= 200 || value === null || typeof value !== 'object') return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + json(v, inner)).join(',\n')}\n${indent}]`;
  return `{\n${Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${json(v, inner)}`).join(',\n')}\n${indent}}`;
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, renderConfigSchema(readFileSync(SCHEMA_FILE, 'utf8')));
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
