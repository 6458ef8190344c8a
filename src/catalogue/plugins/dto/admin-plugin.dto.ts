import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsUUID } from 'class-validator';

export class PluginOwnerDto {
  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty()
  login: string;

  @ApiProperty({ description: 'The forge instance the user signs in with, or local' })
  instance: string;
}

/** A plugin as admins see it: who verified it, whether it is featured, its owners. */
export class AdminPluginDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  repoUrl: string;

  @ApiProperty({ description: 'The claimer proved admin rights on the repository at claim time' })
  repoVerified: boolean;

  @ApiProperty()
  verified: boolean;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms' })
  verifiedAt: number | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The admin who verified it' })
  verifiedBy: string | null;

  @ApiProperty()
  featured: boolean;

  @ApiProperty({ type: String, nullable: true })
  latestVersion: string | null;

  @ApiProperty({ type: String, nullable: true })
  latestPrerelease: string | null;

  @ApiProperty({ type: [PluginOwnerDto] })
  owners: PluginOwnerDto[];
}

export class ChangeOwnersDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Users to add as owners' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true })
  add?: string[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Owners to remove' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true })
  remove?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: 'The one user to become the only owner' })
  @IsOptional()
  @IsUUID()
  transfer?: string;
}
