import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The deepest page any list serves: far past any real list, and keeps every offset a safe integer. */
export const MAX_PAGE = 100_000;
export const MAX_LIMIT = 100;

/**
 * A query integer written as plain decimal digits. Anything else (`1e300`, `0x10`, `1.5`, `-0`,
 * `page[]=1`, a repeated key) stays as sent, so the validators refuse it with a 400 that names it.
 */
const decimalDigits = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value,
);

/** One rule for every paged route: `page` from 1 to 100,000, `limit` from 1 to 100; outside them is 400, never clamped. */
export const PageNumber = () =>
  applyDecorators(
    ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 1 }),
    IsOptional(),
    decimalDigits,
    IsInt(),
    Min(1),
    Max(MAX_PAGE),
  );
export const PageLimit = () =>
  applyDecorators(
    ApiPropertyOptional({ minimum: 1, maximum: MAX_LIMIT, default: 20 }),
    IsOptional(),
    decimalDigits,
    IsInt(),
    Min(1),
    Max(MAX_LIMIT),
  );

/** `page` (from 1) and `limit` (1 to 100, default 20) of a paginated list; out of range is 400, never clamped. */
export class PageQueryDto {
  @PageNumber()
  page?: number;

  @PageLimit()
  limit?: number;
}

/** Where a page of a list stands and how much there is (the list itself beside it). */
export class PageCountDto {
  @ApiProperty()
  page: number;

  @ApiProperty()
  limit: number;

  @ApiProperty()
  total: number;
}

/** A page's position with its page count, as the catalogue, audit log and deliveries answer. */
export class PageEnvelopeDto extends PageCountDto {
  @ApiProperty()
  totalPages: number;
}
