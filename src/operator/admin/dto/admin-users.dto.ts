import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type { UserRole } from '../../../platform/users/entities/user.entity';
import { PageCountDto, PageQueryDto } from '../../../common/validation/page-query.dto';

const ROLES: UserRole[] = ['user', 'admin'];

export class UserListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Part of the login or the email, case-insensitive', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @ApiPropertyOptional({ enum: ROLES })
  @IsOptional()
  @IsIn(ROLES)
  role?: UserRole;
}

export class UpdateUserDto {
  @ApiPropertyOptional({ enum: ROLES })
  @IsOptional()
  @IsIn(ROLES)
  role?: UserRole;

  @ApiPropertyOptional({ description: "true stops the user's sessions and publisher tokens at once; false lets them work again" })
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;
}

export class AdminUserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'octocat' })
  login: string;

  @ApiProperty({ description: 'Forge instance the user signed in with, or "local"', example: 'github' })
  instance: string;

  @ApiProperty({ type: String, nullable: true })
  email: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;

  @ApiProperty({ enum: ROLES })
  role: UserRole;

  @ApiProperty()
  disabled: boolean;

  @ApiProperty({ type: Number, nullable: true, description: 'Epoch ms when the user was disabled' })
  disabledAt: number | null;

  @ApiProperty({ description: 'Epoch ms' })
  createdAt: number;
}

export class AdminUserPageDto extends PageCountDto {
  @ApiProperty({ type: [AdminUserDto] })
  users: AdminUserDto[];
}
