import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command, Option } from 'commander';

// A format is its file and its line in the registry: a fake one of each kind stands in a registry
// line here (the module the line imports is mocked to export it), and every place a user sees the
// formats must show it with its label, with nothing else edited: the API document (enum and
// x-enum-descriptions), the dashboard's generated enums, the editors' JSON Schema, the CLI's choices.
const ROOT = resolve(__dirname, '..');
const FAKE_API = { name: 'fake-api', label: 'Fake API of the registry spec' };
const FAKE_REPORT = { name: 'fake-report', label: 'Fake report of the registry spec' };
const FAKE_SIEM = { name: 'fake-siem', label: 'Fake SIEM of the registry spec' };

jest.mock('../libs/domain/src/target/formats/gemini', () => {
  const actual = jest.requireActual('../libs/domain/src/target/formats/gemini');
  return { ...actual, gemini: { ...actual.gemini, name: 'fake-api', label: 'Fake API of the registry spec', documentedNeeds: undefined } };
});
jest.mock('../libs/reports/src/formats/html', () => {
  const actual = jest.requireActual('../libs/reports/src/formats/html');
  return { ...actual, html: { ...actual.html, name: 'fake-report', label: 'Fake report of the registry spec', extensions: ['fake'] } };
});
jest.mock('../libs/webhooks/src/formats/syslog', () => {
  const actual = jest.requireActual('../libs/webhooks/src/formats/syslog');
  return { ...actual, syslog: { ...actual.syslog, name: 'fake-siem', label: 'Fake SIEM of the registry spec' } };
});

type Doc = import('../apps/dashboard/codegen/service-document').OpenApiDocument;
let doc: Doc;

beforeAll(async () => {
  const { servedOpenApiDocument } = require('../apps/dashboard/codegen/service-document');
  doc = await servedOpenApiDocument();
}, 60_000);

describe('a format added to its registry', () => {
  it('is in the API document, with its label beside its name', () => {
    const documented = (schema: { enum?: unknown[]; 'x-enum-descriptions'?: string[] } | undefined, fake: { name: string; label: string }) => {
      const at = schema?.enum?.indexOf(fake.name) ?? -1;
      return at >= 0 ? schema?.['x-enum-descriptions']?.[at] : undefined;
    };
    const schemas = doc.components.schemas;
    expect(documented(schemas.RegisterTargetBody.properties?.api_format, FAKE_API)).toBe(FAKE_API.label);
    expect(documented(schemas.RegisterWebhookBody.properties?.format_type, FAKE_SIEM)).toBe(FAKE_SIEM.label);
    const format = doc.paths['/api/scans/{id}/report'].get.parameters!.find((p) => p.name === 'format')!;
    expect(documented({ ...format.schema, 'x-enum-descriptions': format['x-enum-descriptions'] }, FAKE_REPORT)).toBe(FAKE_REPORT.label);
  });

  it('is offered by the dashboard with its label, from the document', () => {
    const { renderEnums } = require('../apps/dashboard/codegen/enums');
    const enums: string = renderEnums(doc);
    for (const fake of [FAKE_API, FAKE_REPORT, FAKE_SIEM]) expect(enums).toContain(`'${fake.name}': '${fake.label}'`);
  });

  it('is in the editors\' JSON Schema of gauntlet.yaml, with its label', () => {
    const { renderConfigSchema } = require('../apps/cli/codegen/config-schema');
    const schema = JSON.parse(renderConfigSchema(readFileSync(join(ROOT, 'schemas/gauntlet.schema.json'), 'utf8')));
    const format = schema.definitions.target.properties.format;
    expect(format.enum).toContain(FAKE_API.name);
    expect(format.description).toContain(`${FAKE_API.name}, ${FAKE_API.label}`);
  });

  it('is a choice of the CLI', () => {
    const { buildProgram } = require('../apps/cli/src/main');
    const program: Command = buildProgram({ io: {}, exit: () => undefined });
    const choices = (path: string[], flag: string) => {
      const command = path.reduce((c: Command | undefined, name) => c?.commands.find((s) => s.name() === name), program);
      return (command?.options as Option[] | undefined)?.find((o) => o.long === flag)?.argChoices;
    };
    expect(choices(['scan'], '--format')).toContain(FAKE_API.name);
    expect(choices(['targets', 'add'], '--format')).toContain(FAKE_API.name);
    expect(choices(['scans', 'report'], '--format')).toContain(FAKE_REPORT.name);
  });
});
