import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

export const DEFAULT_CHANGES_LIMIT = 100;
export const MAX_CHANGES_LIMIT = 1000;

/** The feed's types (docs/changes-feed.md says what each means and carries). */
export const CHANGE_TYPES = [
  'release.published',
  'release.yanked',
  'release.unyanked',
  'release.deleted',
  'plugin.updated',
  'plugin.verified',
  'plugin.unverified',
  'plugin.featured',
  'plugin.unfeatured',
  'plugin.deprecated',
  'plugin.undeprecated',
  'plugin.owners_changed',
  'plugin.deleted',
  'keys.changed',
] as const;

/** A cursor as `since` takes it: a seq, in its canonical decimal spelling. */
export const CURSOR_PATTERN = /^(0|[1-9][0-9]{0,17})$/;
/** A `limit` spelled in decimal digits, which the DTO reads as a number. */
export const DECIMAL_DIGITS = /^[0-9]{1,9}$/;

const decimalDigits = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' && DECIMAL_DIGITS.test(value) ? Number(value) : value,
);

export class ChangesQueryDto {
  @ApiPropertyOptional({
    description: "A cursor from an earlier answer's `next` (opaque); absent: from the start of the feed",
    example: '1234',
  })
  @IsOptional()
  @Matches(CURSOR_PATTERN, { message: 'since: must be a cursor from an earlier answer' })
  since?: string;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_CHANGES_LIMIT,
    default: DEFAULT_CHANGES_LIMIT,
    description: 'Most changes in one answer',
  })
  @IsOptional()
  @decimalDigits
  @IsInt({ message: 'limit: must be a whole number' })
  @Min(1, { message: 'limit: must be at least 1' })
  @Max(MAX_CHANGES_LIMIT, { message: `limit: must be at most ${MAX_CHANGES_LIMIT}` })
  limit?: number;
}

export class ChangeDto {
  @ApiProperty({ description: "This change's cursor: asking `since` it answers the changes after it", example: '1234' })
  cursor: string;

  @ApiProperty({ enum: CHANGE_TYPES })
  type: string;

  @ApiProperty({ type: String, nullable: true, description: 'The plugin; null for `keys.changed`' })
  slug: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The release, for `release.*` types' })
  version: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Public fields by type: `release.published` {kid}, `release.yanked` {reason}, `plugin.deprecated` {message, replacement}, `keys.changed` {reason: rotate|resign, kid?, resignedWith?}; otherwise {}',
  })
  data: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  at: string;
}

export class ChangesPageDto {
  @ApiProperty({ type: [ChangeDto], description: 'Oldest first' })
  changes: ChangeDto[];

  @ApiProperty({ description: 'The cursor to ask with next (`since`); the same as asked when nothing changed', example: '1334' })
  next: string;

  @ApiProperty({ description: 'More changes are there already: ask again at once with `next`' })
  more: boolean;
}
