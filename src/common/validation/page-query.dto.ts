import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `page` (from 1) and `limit` (1 to 100, default 20) of a paginated list; out of range is 400, never clamped. */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
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
