import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { NoControlCharacters } from '../../../common/validation/no-control-characters';
import { KIND_PATTERN } from '../../../lib/manifest/rules';
import { REQUEST_STATUSES } from '../entities/plugin-request.entity';
import { PageCountDto, PageQueryDto } from '../../../common/validation/page-query.dto';

export const REQUEST_SORTS = ['votes', 'new'] as const;

export class RequestQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: REQUEST_SORTS, default: 'votes', description: 'votes: most votes first; new: newest first' })
  @IsOptional()
  @IsIn(REQUEST_SORTS)
  sort?: (typeof REQUEST_SORTS)[number];

  @ApiPropertyOptional({ enum: REQUEST_STATUSES, description: 'Only requests in this state; every state when left out' })
  @IsOptional()
  @IsIn(REQUEST_STATUSES)
  status?: (typeof REQUEST_STATUSES)[number];
}

export class CreateRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'A Mermaid diagram renderer' })
  @IsString()
  @MaxLength(200)
  @Matches(/\S/, { message: 'title: must not be blank' })
  @NoControlCharacters()
  title: string;

  @ApiPropertyOptional({ maxLength: 2000, description: 'Plain text' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ maxLength: 40, example: 'theme', description: 'One of the enabled kinds (GET /api/kinds)' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  @Matches(new RegExp(KIND_PATTERN.source), { message: `kind: must be ${KIND_PATTERN.meaning}` })
  kind?: string;
}

export class UpdateRequestDto {
  @ApiProperty({ enum: REQUEST_STATUSES, description: 'fulfilled needs `plugin`; open and closed take none' })
  @IsIn(REQUEST_STATUSES)
  status: (typeof REQUEST_STATUSES)[number];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'mermaid-renderer',
    description: 'The slug of the plugin that fulfils the request',
  })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(64)
  plugin?: string | null;
}

export class RequestDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  kind: string | null;

  @ApiProperty()
  votes: number;

  @ApiProperty({ description: 'Whether the signed-in caller voted for it (false when anonymous)' })
  voted: boolean;

  @ApiProperty({ enum: REQUEST_STATUSES })
  status: string;

  @ApiProperty({ type: String, nullable: true, description: 'Slug of the plugin that fulfilled it' })
  plugin: string | null;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}

export class RequestPageDto extends PageCountDto {
  @ApiProperty({ type: [RequestDto] })
  requests: RequestDto[];
}
