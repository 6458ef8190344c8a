import { ApiProperty } from '@nestjs/swagger';

export class ProblemTypeDto {
  @ApiProperty({ example: 'version-exists' })
  code: string;

  @ApiProperty({ example: 'Conflict' })
  title: string;

  @ApiProperty({ example: 409 })
  status: number;

  @ApiProperty({ description: 'What it means and what to do about it' })
  description: string;
}
