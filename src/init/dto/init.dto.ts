import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, IsUrl, Length, Matches, MaxLength } from 'class-validator';

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

  @ApiPropertyOptional({ example: 'https://plugins.example.com' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  baseUrl?: string;
}

export class InitSettingsResultDto {
  @ApiProperty({ type: String, nullable: true })
  siteName: string | null;

  @ApiProperty({ type: String, nullable: true })
  baseUrl: string | null;
}
