import { ValidationError, ValidationPipe } from '@nestjs/common';
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

/** Unknown fields are rejected, types are not coerced silently, every problem names its field. */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ProblemException(400, 'The request has invalid fields.', { slug: 'validation', title: 'Invalid request', errors: flatten(errors) }),
  });
}
