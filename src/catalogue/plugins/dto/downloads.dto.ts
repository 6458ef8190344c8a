import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The days a downloads series covers by default: the plugin page's chart. */
export const DEFAULT_SERIES_DAYS = 90;
/** The longest series served: the daily counts are kept this long (DOWNLOAD_DAYS_KEPT). */
export const MAX_SERIES_DAYS = 366;

/** Plain decimal digits become a number; anything else stays as sent, for the validators to refuse by name. */
const decimalDigits = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value,
);

export class DownloadsQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_SERIES_DAYS,
    default: DEFAULT_SERIES_DAYS,
    description: 'How many UTC days, ending today',
  })
  @IsOptional()
  @decimalDigits
  @IsInt({ message: 'days: must be a whole number' })
  @Min(1, { message: 'days: must be at least 1' })
  @Max(MAX_SERIES_DAYS, { message: `days: must be at most ${MAX_SERIES_DAYS}` })
  days?: number;

  @ApiPropertyOptional({ description: "One release's downloads instead of the whole plugin's (yanked releases included)" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  version?: string;
}

export class DayDownloadsDto {
  @ApiProperty({ format: 'date', example: '2026-11-27', description: 'A UTC calendar day' })
  day: string;

  @ApiProperty({ description: 'Downloads counted on that day (GET on an asset link)' })
  downloads: number;
}

export class DownloadSeriesDto {
  @ApiProperty()
  slug: string;

  @ApiProperty({ type: String, nullable: true, description: 'The release counted, or null for every release of the plugin' })
  version: string | null;

  @ApiProperty({ format: 'date', description: 'The first day of the series (UTC)' })
  from: string;

  @ApiProperty({ format: 'date', description: 'The last day of the series: today (UTC), counted so far' })
  to: string;

  @ApiProperty({ description: 'Downloads over the whole series' })
  total: number;

  @ApiProperty({ type: [DayDownloadsDto], description: 'Every day from `from` to `to`, oldest first; a day without downloads is 0' })
  series: DayDownloadsDto[];
}
