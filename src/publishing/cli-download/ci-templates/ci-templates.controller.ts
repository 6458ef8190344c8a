import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ProblemDto } from '../../../openapi/problem.dto';
import { CiTemplateQueryDto, CiTemplatesDto } from './ci-templates.dto';
import { CiTemplatesService } from './ci-templates.service';

/** Short, and revalidated: the pin in a template follows the CLI the registry serves. */
const CACHE_CONTROL = 'public, max-age=300, must-revalidate';
const BAD_AUTH = { type: ProblemDto, description: '`auth` is neither trusted nor token' };
const NOT_BUILT = { type: ProblemDto, description: 'This instance has no single-file CLI built (or no such template)' };

@ApiTags('cli')
@Controller()
export class CiTemplatesController {
  constructor(private readonly templates: CiTemplatesService) {}

  @Get('api/ci/templates')
  @ApiOperation({
    summary: "Publish workflows for each CI system, with this registry's BASE_URL and the CLI's SHA-256 pinned",
    security: [],
  })
  @ApiOkResponse({ type: CiTemplatesDto })
  @ApiBadRequestResponse(BAD_AUTH)
  @ApiNotFoundResponse(NOT_BUILT)
  list(@Query() query: CiTemplateQueryDto, @Res({ passthrough: true }) response: Response): CiTemplatesDto {
    response.set('Cache-Control', CACHE_CONTROL);
    return this.templates.all(query.auth);
  }

  @Get('cli/ci/:file')
  @ApiOperation({ summary: 'One publish workflow as a YAML file: github-actions.yml, gitlab-ci.yml or forgejo-actions.yml', security: [] })
  @ApiOkResponse({
    description: "The workflow, with this registry's BASE_URL and the CLI's SHA-256 pinned",
    content: { 'application/yaml': { schema: { type: 'string' } } },
  })
  @ApiBadRequestResponse(BAD_AUTH)
  @ApiNotFoundResponse(NOT_BUILT)
  file(@Param('file') file: string, @Query() query: CiTemplateQueryDto, @Res() response: Response): void {
    const template = this.templates.byFile(file, query.auth);
    response.set({ 'Content-Type': 'application/yaml; charset=utf-8', 'Cache-Control': CACHE_CONTROL });
    response.send(template.content);
  }
}
