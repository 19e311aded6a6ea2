import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type as TransformType } from 'class-transformer';
import type { Type } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiError } from './api-error';
import { ErrorCode } from './error-codes';

/** The page size (`limit`) of every list: 1 to `max`, `default` when left out. */
export const PAGE_LIMIT = { default: 50, max: 200 } as const;

/** The page size of the event log (GET /v1/events), whose pages are longer. */
export const EVENTS_PAGE_LIMIT = { default: 100, max: 500 } as const;

/** How the page size reads in a description: `limit` (1–200, default 50). */
export const pageLimitText = (limit: { default: number; max: number } = PAGE_LIMIT) => `\`limit\` (1–${limit.max}, default ${limit.default})`;

export class ListQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default, description: 'Page size.' })
  @IsOptional()
  @TransformType(() => Number)
  @IsInt()
  @Min(1)
  @Max(PAGE_LIMIT.max)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Keyset cursors: the sort key of the last item, opaque to clients. */
export function encodeCursor(key: unknown[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, shape: Array<'string' | 'number'>): unknown[] | null {
  if (cursor === undefined) return null;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // A string holding U+0000 was never given out (PostgreSQL text cannot hold it).
    const fits = (v: unknown, i: number) => typeof v === shape[i] && !(typeof v === 'string' && v.includes('\u0000'));
    if (Array.isArray(key) && key.length === shape.length && key.every(fits)) return key as unknown[];
  } catch {
    /* fall through */
  }
  throw new ApiError(ErrorCode.INVALID_CURSOR, 'The cursor is not one this API gave out; start again without it.', {
    errors: [{ field: 'cursor', message: 'cursor is not one this API gave out' }],
  });
}

/** Cuts a result fetched with limit + 1 rows into a page. */
export function toPage<R, T>(rows: R[], limit: number, keyOf: (r: R) => unknown[], map: (r: R) => T): Page<T> {
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  return { items: items.map(map), nextCursor: more ? encodeCursor(keyOf(items[items.length - 1])) : null };
}

/** A documented page class for items of `item`'s type, named `<Item>Page`. */
export function PageOf<T>(item: Type<T>): Type<Page<T>> {
  class PageDto {
    @ApiProperty({ type: [item] })
    items: T[];

    @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' })
    nextCursor: string | null;
  }
  Object.defineProperty(PageDto, 'name', { value: `${item.name.replace(/Dto$/, '')}Page` });
  return PageDto;
}
