import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { ProblemException } from './problem';

/** what a cursor looks like: every string of this shape is a position, so the document can say so exactly */
export const CURSOR_PATTERN = '^[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]+$';

export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'page size' })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(200)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor from the previous page', maxLength: 512, pattern: CURSOR_PATTERN })
  @IsOptional() @IsString() @MaxLength(512) @Matches(new RegExp(CURSOR_PATTERN), { message: 'cursor is not one this service issued' })
  cursor?: string;
}

export interface Cursor {
  value: string;
  id: string;
}

/**
 * Opaque keyset cursors, stable under inserts, unlike offsets: the sort value and the id of the
 * last item, each base64url. Any cursor of that shape is a position in the sort order (one this
 * service did not issue just pages from wherever it falls), so only the shape is checked.
 */
export function encodeCursor(c: Cursor): string {
  return `${Buffer.from(c.value, 'utf8').toString('base64url')}.${Buffer.from(c.id, 'utf8').toString('base64url')}`;
}

export function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  const [value, id] = raw.split('.');
  if (id === undefined || !new RegExp(CURSOR_PATTERN).test(raw)) {
    throw new ProblemException(400, 'cursor is not one this service issued.', { slug: 'validation', errors: [{ field: 'cursor', message: 'invalid cursor' }] });
  }
  return { value: Buffer.from(value, 'base64url').toString('utf8'), id: Buffer.from(id, 'base64url').toString('utf8') };
}

/** Fetch one extra document to know whether a next page exists. */
export function page<T extends { _id: string }>(docs: T[], limit: number, sortField: keyof T): { items: T[]; next_cursor: string | null } {
  const items = docs.slice(0, limit);
  const last = items[items.length - 1];
  const next_cursor = docs.length > limit && last ? encodeCursor({ value: String(last[sortField]), id: last._id }) : null;
  return { items, next_cursor };
}
