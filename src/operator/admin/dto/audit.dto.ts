import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { AUDIT_ACTIONS } from '../../../platform/audit/audit-actions';
import { Satisfies } from '../../../common/validation/satisfies';
import { parseInstant } from '../instant';
import { PageEnvelopeDto, PageQueryDto } from '../../../common/validation/page-query.dto';

const isInstant = (value: unknown) => typeof value === 'string' && parseInstant(value) !== null;
const instantMessage = (property: string) => `${property}: must be epoch milliseconds or ISO 8601 (a date, or a date-time with its offset)`;

export class AuditQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  action?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  slug?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The acting user id' })
  @IsOptional()
  @IsUUID()
  actor?: string;

  @ApiPropertyOptional({ description: 'Entries at or after this instant: epoch ms or ISO 8601', example: '2025-01-01T00:00:00Z' })
  @IsOptional()
  @Satisfies('isInstant', isInstant, instantMessage)
  from?: string;

  @ApiPropertyOptional({ description: 'Entries before this instant (exclusive): epoch ms or ISO 8601', example: '1735689600000' })
  @IsOptional()
  @Satisfies('isInstant', isInstant, instantMessage)
  to?: string;
}

export class AuditActorDto {
  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  userId: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The publisher token used, if any' })
  tokenId: string | null;
}

export class AuditEntryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ enum: AUDIT_ACTIONS })
  action: string;

  @ApiProperty({ type: AuditActorDto })
  actor: AuditActorDto;

  @ApiProperty({ type: String, nullable: true })
  slug: string | null;

  @ApiProperty({ type: String, nullable: true })
  ip: string | null;

  @ApiProperty({ type: Object })
  details: Record<string, unknown>;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}

export class AuditPageDto extends PageEnvelopeDto {
  @ApiProperty({ type: [AuditEntryDto] })
  entries: AuditEntryDto[];
}
