import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { AUDIT_ACTIONS } from '../../audit/audit-actions';

export class AuditQueryDto {
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

export class AuditPageDto {
  @ApiProperty({ type: [AuditEntryDto] })
  entries: AuditEntryDto[];

  @ApiProperty()
  page: number;

  @ApiProperty()
  limit: number;

  @ApiProperty()
  total: number;

  @ApiProperty()
  totalPages: number;
}
