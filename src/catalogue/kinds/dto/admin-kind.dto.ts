import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { ExtensionFieldDto, KindDto } from './kind.dto';

const KIND_KEY = /^[a-z0-9][a-z0-9-]*$/;

export class ExtensionFieldInputDto {
  @ApiProperty({ example: 'stars' })
  @IsString()
  @Length(1, 64)
  key: string;

  @ApiPropertyOptional({ description: 'What people read for the field; the key when absent', example: 'Dark variant' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  label?: string;

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

  @ApiPropertyOptional({ default: false, description: 'Refuse releases of this kind without a verified Sigstore provenance bundle' })
  @IsOptional()
  @IsBoolean()
  requireProvenance?: boolean;

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

/** Present means "checked"; only `description` may be null (which clears it). */
const present = (_object: object, value: unknown) => value !== undefined;

/**
 * An edit of the fields the body names: a field left out keeps its value (a PUT of `{label,
 * description}`, the spec's body, neither re-enables a kind nor drops its extension fields). The key
 * is immutable (a different key in the body is 400).
 */
export class UpdateKindDto {
  @ApiPropertyOptional({ description: 'May be sent, but must equal the key in the path' })
  @IsOptional()
  @IsString()
  key?: string;

  @ApiPropertyOptional({ example: 'Themes' })
  @ValidateIf(present)
  @IsString()
  @Length(1, 100)
  label?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'null clears it' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional()
  @ValidateIf(present)
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ description: 'Refuse releases of this kind without a verified Sigstore provenance bundle' })
  @ValidateIf(present)
  @IsBoolean()
  requireProvenance?: boolean;

  @ApiPropertyOptional({ type: [ExtensionFieldInputDto], description: 'Replaces the whole list when given' })
  @ValidateIf(present)
  @IsArray()
  @ArrayMaxSize(64)
  @ValidateNested({ each: true })
  @Type(() => ExtensionFieldInputDto)
  extensionFields?: ExtensionFieldInputDto[];
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
