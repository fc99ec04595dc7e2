import openapiTS, { astToString } from 'openapi-typescript';
import { HEADER, renderEnums } from './enums';
import type { OpenApiDocument } from './service-document';

/** the files of the dashboard's typed client: the document's types and the value lists it needs */
export async function renderClientFiles(doc: OpenApiDocument): Promise<Record<'schema.d.ts' | 'enums.ts', string>> {
  // defaults are the server's to apply: a field with a default stays optional in what the dashboard sends
  const schema = astToString(await openapiTS(doc as never, { defaultNonNullable: false }));
  return { 'schema.d.ts': HEADER + '\n' + schema, 'enums.ts': renderEnums(doc) };
}
