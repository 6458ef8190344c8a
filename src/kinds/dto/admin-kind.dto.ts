import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, MaxLength, Min, ValidateNested } from 'class-validator';
import { ExtensionFieldDto, KindDto } from './kind.dto';

const KIND_KEY = /^[a-z0-9][a-z0-9-]*$/;

export class ExtensionFieldInputDto {
  @ApiProperty({ example: 'stars' })
  @IsString()
  @Length(1, 64)
  key: string;

  @ApiProperty({ enum: ['string', 'number', 'boolean', 'string[]'] })
  @IsIn(['string', 'number', 'boolean', 'string[]'])
  type: 'string' | 'number' | 'boolean' | 'string[]';

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  required?: boolean;

  @ApiPropertyOptional({ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'number' }] } })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  enum?: (string | number)[];

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  maxLength?: number;
}

/** What a kind holds besides its key. */
class KindFieldsDto {
  @ApiProperty({ example: 'Themes' })
  @IsString()
  @Length(1, 100)
  label: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ type: [ExtensionFieldInputDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @ValidateNested({ each: true })
  @Type(() => ExtensionFieldInputDto)
  extensionFields?: ExtensionFieldInputDto[];
}

export class CreateKindDto extends KindFieldsDto {
  @ApiProperty({ example: 'theme', pattern: KIND_KEY.source })
  @IsString()
  @Length(1, 40)
  @Matches(KIND_KEY, { message: 'key: must be lowercase letters, digits and hyphens, starting with a letter or digit' })
  key: string;
}

/** A replacement of everything but the key, which is immutable (a different key in the body is 400). */
export class UpdateKindDto extends KindFieldsDto {
  @ApiPropertyOptional({ description: 'May be sent, but must equal the key in the path' })
  @IsOptional()
  @IsString()
  key?: string;
}

export class AdminKindDto extends KindDto {
  @ApiProperty()
  enabled: boolean;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;

  @ApiProperty({ description: 'Epoch ms' })
  updatedAt: number;
}

export class AdminKindListDto {
  @ApiProperty({ type: [AdminKindDto], description: 'Every kind, disabled ones too' })
  kinds: AdminKindDto[];
}

export class ExtensionFieldsDto {
  @ApiProperty({ type: [ExtensionFieldDto] })
  fields: ExtensionFieldDto[];
}

export class PutExtensionFieldsDto {
  @ApiProperty({ type: [ExtensionFieldInputDto] })
  @IsArray()
  @ArrayMaxSize(64)
  @ValidateNested({ each: true })
  @Type(() => ExtensionFieldInputDto)
  fields: ExtensionFieldInputDto[];
}
