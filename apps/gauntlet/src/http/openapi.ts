import { ParseUUIDPipe, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { THROTTLER_SKIP } from '@nestjs/throttler/dist/throttler.constants';
import type { MetadataStorage as TransformMetadata } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';
import { IS_PUBLIC } from './principal';
import type { TextRules } from './clean-text';
import { isClearable } from './validation';
import { BudgetField, budgetFieldSchema } from '@gauntlet/domain';
import { RATE_LIMIT_THROTTLER } from './rate-limit';

/** What the code says about one operation that the document cannot tell by itself. */
export interface OperationFacts {
  /** no credentials needed */
  public: boolean;
  /** counted against the per-IP limit */
  throttled: boolean;
  /** path parameters validated as UUIDs (ParseUUIDPipe) */
  uuidParams: string[];
  /** the class its query string is validated as, if any */
  query?: Function;
}

type Schema = Record<string, any>;

const SCHEMA_RULES = 'gauntlet:openapi:schema-rules';
/**
 * JSON Schema keywords a request body class adds to its schema: the rules between its fields
 * that the decider enforces (e.g. api_format required when scan_mode is api), so the document
 * states them and a client (or a fuzzer) can tell a body the service takes from one it refuses.
 */
export const SchemaRules = (keywords: Schema): ClassDecorator => (target) => Reflect.defineMetadata(SCHEMA_RULES, keywords, target);

/**
 * What class-validator enforces on a property, as JSON Schema keywords: the document then says
 * what the validation pipe does, whoever wrote the decorators (the swagger compiler plugin that
 * would read them is not in our swc build). `items` is for validators applied to each element.
 */
export function validatedSchemaOf(dto: Function): Map<string, { own: Schema; items: Schema }> {
  const out = new Map<string, { own: Schema; items: Schema }>();
  for (const m of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    const keywords = keywordsOf(m.name ?? m.type, m.constraints ?? []);
    if (!keywords) continue;
    const entry = out.get(m.propertyName) ?? { own: {}, items: {} };
    Object.assign(m.each ? entry.items : entry.own, keywords);
    out.set(m.propertyName, entry);
  }
  return out;
}

const NO_CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const NO_CONTROLS_BUT_LINES = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** CleanText as a pattern: no controls or bidi controls, and one character that is not whitespace */
const cleanTextPattern = (refused: string) => `^[^${refused}]*[^\\s${refused}][^${refused}]*$`;

function keywordsOf(name: string, c: unknown[]): Schema | null {
  switch (name) {
    case 'minLength': return { minLength: c[0] };
    case 'maxLength': return { maxLength: c[0] };
    case 'min': return { minimum: c[0] };
    case 'max': return { maximum: c[0] };
    case 'isInt': return { type: 'integer' };
    case 'isBoolean': return { type: 'boolean' };
    case 'arrayMinSize': return { minItems: c[0] };
    case 'arrayMaxSize': return { maxItems: c[0] };
    case 'isUuid': return { format: 'uuid' };
    case 'isEmail': return { format: 'email' };
    case 'isIso8601': return { format: 'date-time' };
    case 'isRfc3339': return { format: 'date-time' };
    // IsUrl takes international host names, so an IRI, not only an ASCII URI
    case 'isUrl': return { format: 'iri', pattern: '^https?://' };
    case 'matches': return c[0] instanceof RegExp && !c[0].flags ? { pattern: c[0].source } : null;
    case 'budgetValue': {
      const { type, minimum, maximum } = budgetFieldSchema(c[0] as BudgetField);
      return { type, minimum, maximum };
    }
    case 'cleanText': return { pattern: cleanTextPattern((c[0] as TextRules | undefined)?.multiline ? NO_CONTROLS_BUT_LINES : NO_CONTROLS) };
    default: return null;
  }
}

/** applies validator keywords to a property schema (to its items when it is an array and they are per element) */
function constrain(schema: Schema, { own, items }: { own: Schema; items: Schema }): void {
  // a second pattern (a property's own and CleanText's) must hold as well, not replace the first
  const { pattern, ...rest } = own;
  Object.assign(schema, rest);
  if (pattern !== undefined) {
    if (schema.pattern === undefined || schema.pattern === pattern) schema.pattern = pattern;
    else schema.allOf = [...(schema.allOf ?? []), { pattern }];
  }
  if (Object.keys(items).length) {
    if (schema.type === 'array' && schema.items && !schema.items.$ref) Object.assign(schema.items, items);
    else if (schema.type !== 'array') Object.assign(schema, items);
  }
}

const PROBLEM_SCHEMA = {
  type: 'object',
  description: 'RFC 9457 problem details; some problems add members of their own (e.g. plan, quota, scan_status)',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', description: 'urn:gauntlet:problem:<kind>', example: 'urn:gauntlet:problem:validation' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'the path of the request' },
    errors: {
      type: 'array',
      description: 'one entry per field problem',
      items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string', example: 'events.0.kind' }, message: { type: 'string' } } },
    },
  },
  additionalProperties: true,
};

// free JSON as the body parser takes it: keys that would poison a prototype are refused at any depth
const NO_POISON = { not: { anyOf: [{ required: ['__proto__'] }, { required: ['constructor'], properties: { constructor: { type: 'object', required: ['prototype'] } } }] } };
const JSON_BRANCHES = (item: string) => [
  { type: 'object', additionalProperties: { $ref: `#/components/schemas/${item}` }, ...NO_POISON },
  { type: 'array', items: { $ref: `#/components/schemas/${item}` } },
  { type: 'string' },
  { type: 'number' },
  { type: 'boolean' },
];
/** any JSON value but null (refer to it for fields that take free JSON, e.g. a tool call's arguments) */
export const FREE_JSON_REF = '#/components/schemas/FreeJson';
const FREE_JSON_SCHEMAS = {
  FreeJson: { description: 'any JSON value but null; no key named __proto__, nor constructor holding prototype, at any depth', anyOf: JSON_BRANCHES('FreeJsonOrNull') },
  FreeJsonOrNull: { nullable: true, anyOf: [...JSON_BRANCHES('FreeJsonOrNull'), { type: 'string', nullable: true, enum: [null] }] },
};

const RETRY_AFTER = { 'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } } };

/** Why each status can answer, in the words a client reads in the document. */
const WHY: Record<number, string> = {
  400: 'invalid input: a field, the query, the path or the body (not a JSON object, not UTF-8, nested deeper than 32 levels, a key named __proto__); `errors` names each field',
  401: 'no credentials, or credentials that are not valid (expired, revoked, malformed, both a token and a key)',
  403: 'not allowed by role or plan',
  404: 'absent, or not yours',
  409: 'conflicts with the current state, or with another request changing the same resource at the same time (retry)',
  413: 'the body is larger than 1 MiB',
  414: 'a path segment is longer than 100 characters',
  415: 'the body is not application/json in UTF-8',
  429: 'a limit was reached (120 requests per minute per client IP, or the limit of this operation); see Retry-After',
  503: 'a store or the bus is unreachable; see Retry-After',
};

const problemContent = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

/**
 * Completes the document @nestjs/swagger builds from the decorators, the same way for every
 * operation, so a route added later is documented without a line of its own: every error status
 * it can answer, with the Problem schema as application/problem+json, and path parameters that
 * are UUIDs marked so. Statuses a route declares itself keep their description; an error
 * response without a body of its own gets the Problem schema.
 */
export function completeOpenApi(document: OpenAPIObject, factsOf: (operationId: string) => OperationFacts | undefined, dtos: Function[] = []): OpenAPIObject {
  const schemas: Record<string, Schema> = { ...document.components?.schemas, Problem: PROBLEM_SCHEMA, ...FREE_JSON_SCHEMAS };
  document.components = { ...document.components, schemas };
  // request bodies: what the validators enforce, and no field they do not know (the pipe refuses unknown fields)
  for (const dto of dtos) {
    const schema = schemas[dto.name];
    if (!schema?.properties) continue;
    for (const [property, keywords] of validatedSchemaOf(dto)) if (schema.properties[property]) constrain(schema.properties[property], keywords);
    for (const property of Object.keys(schema.properties)) if (isClearable(dto, property)) schema.properties[property].nullable = true;
    schema.additionalProperties = false;
    Object.assign(schema, Reflect.getMetadata(SCHEMA_RULES, dto) ?? {});
  }
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, any][]) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const facts = factsOf(operation.operationId) ?? { public: false, throttled: true, uuidParams: [] };
      const pathParams = (operation.parameters ?? []).filter((p: any) => p.in === 'path');
      const hasQuery = (operation.parameters ?? []).some((p: any) => p.in === 'query');
      for (const p of pathParams) {
        if (facts.uuidParams.includes(p.name)) p.schema = { ...p.schema, type: 'string', format: 'uuid' };
      }
      if (facts.query) {
        const validated = validatedSchemaOf(facts.query);
        for (const p of operation.parameters ?? []) if (p.in === 'query' && validated.has(p.name)) constrain((p.schema ??= {}), validated.get(p.name)!);
      }
      const takesBody = method !== 'get' && method !== 'head';
      const statuses = new Set<number>([503]);
      if (pathParams.length || hasQuery || takesBody) statuses.add(400);
      if (!facts.public) statuses.add(401);
      if (pathParams.length) statuses.add(404).add(414);
      // a body can name another resource (a target_id) that is absent or not the caller's
      if (takesBody && !facts.public) statuses.add(404);
      if (takesBody) statuses.add(413).add(415);
      if (takesBody && !facts.public) statuses.add(409);
      if (facts.throttled) statuses.add(429);

      const responses: Record<string, any> = operation.responses;
      for (const status of statuses) responses[status] ??= { description: WHY[status] };
      for (const [code, response] of Object.entries(responses)) {
        const status = Number(code);
        if (!(status >= 400)) continue;
        if (!response.description) response.description = WHY[status] ?? '';
        response.content ??= problemContent;
        if (status === 429 || status === 503) response.headers = { ...RETRY_AFTER, ...response.headers };
      }
    }
  }
  return document;
}

const NEST_METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'get', [RequestMethod.POST]: 'post', [RequestMethod.PUT]: 'put', [RequestMethod.PATCH]: 'patch', [RequestMethod.DELETE]: 'delete',
};

/**
 * The facts of every route, read from the Nest metadata of the application's controllers and
 * keyed by the operation id @nestjs/swagger gives them (`<Controller>_<method>`).
 */
export function routeFacts(app: NestFastifyApplication): { operations: Map<string, OperationFacts>; dtos: Function[] } {
  const facts = new Map<string, OperationFacts>();
  const dtos = new Set<Function>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        // the descriptor's value, not the property: reading a getter off the prototype would run it
        const handler: unknown = Object.getOwnPropertyDescriptor(controller.prototype, key)?.value;
        if (key === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined || !NEST_METHODS[method]) continue;
        const flag = (name: string) => Reflect.getMetadata(name, handler) === true || Reflect.getMetadata(name, controller) === true;
        const args: Record<string, { data?: unknown; pipes?: unknown[] }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {};
        const uuidParams = Object.entries(args)
          .filter(([k, a]) => k.startsWith(`${RouteParamtypes.PARAM}:`) && typeof a.data === 'string' && (a.pipes ?? []).some((p) => p === ParseUUIDPipe || p instanceof ParseUUIDPipe))
          .map(([, a]) => a.data as string);
        const types: unknown[] = Reflect.getMetadata('design:paramtypes', controller.prototype, key) ?? [];
        const typeOf = (kind: RouteParamtypes) => {
          const arg = Object.entries(args).find(([k]) => k.startsWith(`${kind}:`));
          const type = arg ? types[arg[1] && 'index' in arg[1] ? (arg[1] as { index: number }).index : -1] : undefined;
          return typeof type === 'function' && type !== Object ? type : undefined;
        };
        const body = typeOf(RouteParamtypes.BODY);
        if (body) nestedDtos(body, dtos);
        facts.set(`${controller.name}_${key}`, { public: flag(IS_PUBLIC), throttled: !flag(THROTTLER_SKIP + RATE_LIMIT_THROTTLER), uuidParams, query: typeOf(RouteParamtypes.QUERY) });
      }
    }
  }
  return { operations: facts, dtos: [...dtos] };
}

// where class-transformer keeps @Type(): the package exports no API to read it
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformMetadata };

/** a body class and the classes of its nested bodies (class-transformer's @Type), each once */
function nestedDtos(dto: Function, into: Set<Function>): void {
  if (into.has(dto)) return;
  into.add(dto);
  for (const m of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    if (m.type !== 'nestedValidation') continue;
    const nested = defaultMetadataStorage.findTypeMetadata(dto, m.propertyName)?.typeFunction();
    if (typeof nested === 'function') nestedDtos(nested, into);
  }
}
