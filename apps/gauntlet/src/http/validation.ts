import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, IS_OPTIONAL } from 'class-validator';
import { ProblemException } from './problem';

function flatten(errors: ValidationError[], parent = ''): { field: string; message: string }[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) =>
      // class-validator names the unknown property in its message; say it plainly
      ({ field, message: message.replace(/^property (\S+) should not exist$/, 'unknown field') }),
    );
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

const CLEARABLE = 'gauntlet:clearable';

/**
 * An optional field whose null is a value: "clear it" (PATCH {"model": null} removes the model).
 * Every other optional field refuses null (nullOptionals below); the OpenAPI document marks
 * these nullable.
 */
export const Clearable = (): PropertyDecorator => (target, property) => Reflect.defineMetadata(CLEARABLE, true, target, property);

export const isClearable = (dto: Function, property: string): boolean => Reflect.getMetadata(CLEARABLE, dto.prototype, property) === true;

/**
 * Optional fields of a request body that were sent as null. @IsOptional() lets null through
 * as if the field were absent, and a handler reading `body.x !== undefined` would then store the
 * null (PATCH {"name": null}); leaving a field out is how a client says "not this one".
 * The body's depth is bounded before it gets here (json-body.ts), so the walk is too.
 */
export function nullOptionals(value: unknown, path = ''): ValidationError[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => nullOptionals(item, path ? `${path}.${i}` : String(i)));
  if (value === null || typeof value !== 'object') return [];
  const dto = value.constructor;
  if (dto === Object) return []; // free JSON (a tool call's arguments): nulls are data there
  const optional = new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).filter((m) => m.name === IS_OPTIONAL).map((m) => m.propertyName));
  return Object.entries(value).flatMap(([key, v]) => {
    const field = path ? `${path}.${key}` : key;
    if (v === null && optional.has(key) && !isClearable(dto, key)) {
      return [{ property: field, constraints: { notNull: `${key} must not be null (leave it out instead)` }, children: [] } satisfies ValidationError];
    }
    return nullOptionals(v, field);
  });
}

const AS_PAIRS = 'gauntlet:as-pairs';

/**
 * An object field whose keys are data (header names), read as its [key, value] pairs before the
 * body is mapped to its class: the mapper skips keys such as `constructor` and trips on others
 * every object inherits, which silently dropped such headers.
 */
export const AsPairs = (): PropertyDecorator => (target, property) => Reflect.defineMetadata(AS_PAIRS, true, target, property);

export function pairsFirst(dto: Function, body: Record<string, unknown>): Record<string, unknown> {
  let out = body;
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (Reflect.getMetadata(AS_PAIRS, dto.prototype, key) === true && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out = { ...out, [key]: Object.entries(value) };
    }
  }
  return out;
}

class StrictValidationPipe extends ValidationPipe {
  /** a route that takes a body needs one, an object: an absent or null body is not an empty change */
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined) throw new ProblemException(400, 'This operation needs a JSON body (Content-Type: application/json).', { slug: 'validation', title: 'Invalid request' });
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ProblemException(400, 'The body must be a JSON object.', { slug: 'validation', title: 'Invalid request' });
      value = pairsFirst(metadata.metatype, value as Record<string, unknown>);
    }
    return super.transform(value, metadata);
  }

  protected async validate(object: object, options?: Parameters<ValidationPipe['validate']>[1]): Promise<ValidationError[]> {
    return [...nullOptionals(object), ...(await super.validate(object, options))];
  }
}

/** Unknown fields are rejected, types are not coerced silently, every problem names its field. */
export function validationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ProblemException(400, 'The request has invalid fields.', { slug: 'validation', title: 'Invalid request', errors: flatten(errors) }),
  });
}
