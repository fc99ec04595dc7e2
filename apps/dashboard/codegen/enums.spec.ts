import { renderEnums } from './enums';
import type { OpenApiDocument } from './service-document';

const doc = (format: Record<string, unknown>): OpenApiDocument => ({
  openapi: '3.0.0',
  paths: { '/api/things/{id}/report': { get: { parameters: [{ name: 'format', in: 'query', schema: { enum: ['pdf', 'json'] } }] } } },
  components: { schemas: { ThingBody: { properties: { format, kinds: { items: { enum: ['a', 'b-c'] } } } } } },
});
const entries = [
  { name: 'thingFormats', type: 'ThingFormat', from: { schema: 'ThingBody', property: 'format' }, labels: true },
  { name: 'kinds', type: 'Kind', from: { schema: 'ThingBody', property: 'kinds' } },
  { name: 'reportFormats', type: 'ReportFormat', from: { path: '/api/things/{id}/report', method: 'get', parameter: 'format' } },
];

describe('the dashboard enums read from the OpenAPI document', () => {
  it('given a property enum, an array enum and a query parameter enum, exports each list and its type', () => {
    const text = renderEnums(doc({ enum: ['openai', 'azure-openai'] }), entries);
    expect(text).toContain("export const thingFormats = ['openai', 'azure-openai'] as const;");
    expect(text).toContain('export type ThingFormat = (typeof thingFormats)[number];');
    expect(text).toContain("export const kinds = ['a', 'b-c'] as const;");
    expect(text).toContain("export const reportFormats = ['pdf', 'json'] as const;");
  });

  it('given x-enum-descriptions, the labels are the descriptions', () => {
    const text = renderEnums(doc({ enum: ['openai', 'azure-openai'], 'x-enum-descriptions': ['OpenAI-compatible', "Azure's OpenAI"] }), entries);
    expect(text).toContain("export const thingFormatLabels: Readonly<Record<ThingFormat, string>> = {\n  openai: 'OpenAI-compatible',\n  'azure-openai': 'Azure\\'s OpenAI',\n};");
  });

  it('given no descriptions, the labels fall back to the values', () => {
    expect(renderEnums(doc({ enum: ['openai'] }), entries)).toContain("thingFormatLabels: Readonly<Record<ThingFormat, string>> = {\n  openai: 'openai',\n};");
  });

  it('given a property that is gone or carries no enum, refuses with where it looked', () => {
    expect(() => renderEnums(doc({ type: 'string' }), entries)).toThrow('ThingBody.format carries no enum (for thingFormats)');
    expect(() => renderEnums(doc({ enum: ['x'] }), [{ name: 'gone', type: 'Gone', from: { schema: 'Nope', property: 'x' } }])).toThrow('the OpenAPI document has no Nope.x');
  });
});
