import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ProblemFieldErrorDto {
  @ApiProperty({ description: 'JSON pointer into the manifest or the request body', example: '/screenshots/2/url' })
  path: string;

  @ApiProperty({ example: 'url: must be at most 500 characters' })
  message: string;
}

/** RFC 9457 problem details: the body of every error response. */
export class ProblemDto {
  @ApiProperty({ example: 'http://localhost:3000/problems/not-found' })
  type: string;

  @ApiProperty({ example: 'Not Found' })
  title: string;

  @ApiProperty({ example: 404 })
  status: number;

  @ApiProperty({ example: 'no such resource' })
  detail: string;

  @ApiPropertyOptional({ type: [ProblemFieldErrorDto] })
  errors?: ProblemFieldErrorDto[];
}
