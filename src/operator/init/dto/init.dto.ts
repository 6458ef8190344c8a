import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsEmail, IsOptional, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { AddForgeDto, ForgeInstanceDto } from '../../forge-admin/dto/forge-instance.dto';
import { Satisfies } from '../../../common/validation/satisfies';

export class InitStatusDto {
  @ApiProperty({ description: 'True once an admin exists; the wizard is then closed for good' })
  initialized: boolean;
}

export class CreateAdminDto {
  @ApiProperty({ example: 'admin', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$' })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, { message: 'login: letters, digits, _ . - (1-100), starting with a letter or digit' })
  login: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;
}

export class InitSettingsDto {
  @ApiPropertyOptional({ maxLength: 100, example: 'Acme Plugins' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  siteName?: string;

  // The public URL is configuration (BASE_URL): links, problem types and key URLs are built from
  // it at start, so a value stored here would be ignored. Say so instead of "not a known field".
  @ApiHideProperty()
  @IsOptional()
  @Satisfies(
    'configuredByEnvironment',
    () => false,
    () => 'baseUrl: is configured with the BASE_URL environment variable, not in the wizard',
  )
  baseUrl?: never;

  @ApiPropertyOptional({
    type: [AddForgeDto],
    maxItems: 20,
    description:
      'Forge instances to sign in with, live at once (no restart): the instances added through the wizard become exactly these. Secrets are stored encrypted and never returned.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => AddForgeDto)
  forges?: AddForgeDto[];
}

export class InitSettingsResultDto {
  @ApiProperty({ type: String, nullable: true })
  siteName: string | null;

  @ApiProperty({ type: [ForgeInstanceDto], description: 'The forge instances added so far (never their client id or secret)' })
  forges: ForgeInstanceDto[];
}
