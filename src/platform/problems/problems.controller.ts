import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ProblemDto } from '../../openapi/problem.dto';
import { ProblemTypeDto } from './dto/problem-type.dto';
import { ProblemsService } from './problems.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

/** Where a problem's `type` URI leads: what the problem means and what to do. */
@ApiTags('meta')
@Controller('problems')
export class ProblemsController {
  constructor(private readonly problems: ProblemsService) {}

  @Get(':code')
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOkResponse({ type: ProblemTypeDto })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Describe a problem type' })
  @ApiPublic()
  describe(@Param('code') code: string): ProblemTypeDto {
    return this.problems.describe(code);
  }
}
