import { ApiProperty } from '@nestjs/swagger';

export class UserDto {
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

  @ApiProperty({ enum: ['user', 'admin'] })
  role: 'user' | 'admin';

  @ApiProperty({ description: 'Epoch milliseconds' })
  createdAt: number;
}
