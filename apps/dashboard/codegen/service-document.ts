import { servedOpenApiDocument as served } from '../../gauntlet/src/embedded';

/** The OpenAPI document exactly as the service serves it at /api/openapi.json (asked in-process, nothing listens). */
export async function servedOpenApiDocument(): Promise<OpenApiDocument> {
  return (await served()) as OpenApiDocument;
}

/** the parts of an OpenAPI 3 document the generator reads */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema?: EnumSchema; 'x-enum-descriptions'?: string[] }[] }>>;
  components: { schemas: Record<string, { properties?: Record<string, EnumSchema> }> };
}

export interface EnumSchema {
  enum?: unknown[];
  items?: EnumSchema;
  'x-enum-descriptions'?: string[];
}
