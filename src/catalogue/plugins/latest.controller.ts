import { Controller, Get, Header, Headers, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { LatestDto, LatestQueryDto, PlatformAssetDto } from './dto/latest.dto';
import { LatestService } from './latest.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

@ApiTags('releases')
@ApiExtraModels(PlatformAssetDto)
@Controller('api/plugins/:slug')
export class LatestController {
  constructor(private readonly latest: LatestService) {}

  @Get('latest')
  @Header('Cache-Control', 'public, max-age=60')
  // Without os and arch the answer depends on who asks.
  @Header('Vary', 'User-Agent')
  @ApiOkResponse({
    type: LatestDto,
    headers: { 'Registry-Freshness': { description: 'The signed freshness statement, as in `freshness`', schema: { type: 'string' } } },
    description:
      'The latest release and its asset for the platform (query os/arch, else the User-Agent, else the universal asset). For a deprecated plugin, RFC 9745 headers: `Deprecation: @<unix seconds>` and `Link` to the plugin\'s page (rel="deprecation") and to its replacement\'s (rel="successor-version")',
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin, or no release passes the filters (`skipped` says why)' })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: 'Neither an asset for the platform nor a universal one; the body carries `platforms`',
  })
  @ApiOperation({ summary: 'Resolve the latest release for a platform' })
  @ApiPublic()
  async resolve(
    @Param('slug', SlugPipe) slug: string,
    @Query() query: LatestQueryDto,
    @Headers('user-agent') userAgent: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LatestDto> {
    const answer = await this.latest.answer(slug, query, userAgent);
    res.set(answer.headers);
    return answer.body;
  }
}
