import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { NoControlCharacters } from '../../../common/validation/no-control-characters';
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../../../lib/scopes/scopes';
import { DeprecationDto } from './catalogue.dto';

/** `PUT /api/plugins/:slug/deprecation` (and the admin route): the mark's message and replacement. */
export class DeprecatePluginDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 500,
    description: 'One line: no control characters (newlines included)',
    example: 'Unmaintained; use markdown-pro instead',
  })
  @IsString()
  @Length(1, 500)
  @Matches(/\S/, { message: 'message: must not be blank' })
  @NoControlCharacters()
  message: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: SLUG_MAX_LENGTH,
    description: 'The slug of an existing plugin to use instead: not this one, nor a deprecated plugin whose replacement is this one (422)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(SLUG_MAX_LENGTH)
  @Matches(SLUG_PATTERN, { message: `replacement: must be a plugin slug (${SLUG_PATTERN.source})` })
  replacement?: string | null;
}

/** A plugin's deprecation after a change. */
export class DeprecationStateDto {
  @ApiProperty()
  slug: string;

  @ApiProperty({ type: DeprecationDto, nullable: true, description: 'Null once undone' })
  deprecated: DeprecationDto | null;
}
