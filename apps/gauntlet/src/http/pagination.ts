import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { ProblemException } from './problem';

export class PageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50, description: 'page size' })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor from the previous page' })
  @IsOptional() @IsString() @MaxLength(512)
  cursor?: string;
}

export interface Cursor {
  value: string | number | null;
  id: string;
}

/** Opaque keyset cursors: stable under inserts, unlike offsets. */
export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.value, c.id])).toString('base64url');
}

export function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const [value, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof id !== 'string' || !['string', 'number'].includes(typeof value)) throw new Error();
    return { value, id };
  } catch {
    throw new ProblemException(400, 'cursor is not one this service issued.', { slug: 'validation', errors: [{ field: 'cursor', message: 'invalid cursor' }] });
  }
}

/** Fetch one extra document to know whether a next page exists. */
export function page<T extends { _id: string }>(docs: T[], limit: number, sortField: keyof T): { items: T[]; next_cursor: string | null } {
  const items = docs.slice(0, limit);
  const last = items[items.length - 1];
  const next_cursor = docs.length > limit && last ? encodeCursor({ value: last[sortField] as unknown as string, id: last._id }) : null;
  return { items, next_cursor };
}
