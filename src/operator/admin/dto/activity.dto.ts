import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_ACTIVITY_DAYS = 30;
export const MAX_ACTIVITY_DAYS = 366;

const decimalDigits = Transform(({ value }: { value: unknown }) =>
  typeof value === 'string' && /^[0-9]{1,9}$/.test(value) ? Number(value) : value,
);

export class ActivityQueryDto {
  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_ACTIVITY_DAYS,
    default: DEFAULT_ACTIVITY_DAYS,
    description: 'How many UTC days, ending today',
  })
  @IsOptional()
  @decimalDigits
  @IsInt({ message: 'days: must be a whole number' })
  @Min(1, { message: 'days: must be at least 1' })
  @Max(MAX_ACTIVITY_DAYS, { message: `days: must be at most ${MAX_ACTIVITY_DAYS}` })
  days?: number;
}

export class DayCountDto {
  @ApiProperty({ format: 'date', example: '2026-11-27', description: 'A UTC calendar day' })
  day: string;

  @ApiProperty()
  count: number;
}

export class ActivitySeriesDto {
  @ApiProperty({ description: 'Over the whole series' })
  total: number;

  @ApiProperty({ type: [DayCountDto], description: 'Every day from `from` to `to`, oldest first; a day without any is 0' })
  series: DayCountDto[];
}

export class ActivityDto {
  @ApiProperty({ format: 'date', description: 'The first day (UTC)' })
  from: string;

  @ApiProperty({ format: 'date', description: 'The last day: today (UTC), so far' })
  to: string;

  @ApiProperty({ type: ActivitySeriesDto, description: 'Releases recorded (audit action plugin.publish), by CI push or webhook' })
  publishes: ActivitySeriesDto;

  @ApiProperty({ type: ActivitySeriesDto, description: 'Webhook deliveries that failed for good (webhook.delivery_failed)' })
  failedDeliveries: ActivitySeriesDto;

  @ApiProperty({
    type: ActivitySeriesDto,
    description:
      'CI pushes the ingest refused: invalid manifest, asset fetch failure, version conflict, no right to publish (plugin.publish_invalid, _asset_fail, _conflict, _denied)',
  })
  ingestErrors: ActivitySeriesDto;
}
