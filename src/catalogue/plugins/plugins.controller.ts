import { Controller, Get, Header, Param, Query, Res, UseInterceptors } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthContext } from '../../platform/auth/auth-context';
import { MaybeAuth, OptionalSession } from '../../platform/auth/auth.decorators';
import { CacheByCallerInterceptor } from '../../platform/auth/cache-by-caller.interceptor';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ApiQueryFrom } from '../../openapi/api-query-from';
import { ProblemDto } from '../../openapi/problem.dto';
import { type CatalogueQuery, CatalogueQueryPipe } from './catalogue-query.pipe';
import { CATALOGUE_CACHE_CONTROL, CatalogueService } from './catalogue.service';
import { CataloguePageDto, CatalogueQueryDto } from './dto/catalogue.dto';
import { PluginDetailDto, PluginDetailQueryDto } from './dto/plugin-detail.dto';
import { PluginDetailService } from './plugin-detail.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

@ApiTags('plugins')
@Controller('api/plugins')
export class PluginsController {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly details: PluginDetailService,
  ) {}

  @Get()
  @Header('Cache-Control', CATALOGUE_CACHE_CONTROL)
  // The pipe reads the query (the parameter's type is an interface), so the document is told here.
  @ApiQueryFrom(CatalogueQueryDto)
  @ApiQuery({
    name: 'ext.<key>',
    required: false,
    type: String,
    description:
      'A declared extension field (GET /api/kinds) to match: any number of ext.<key>=<value> parameters (up to 8), combined with AND; string[] fields match one item',
  })
  @ApiOkResponse({ type: CataloguePageDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'An unknown parameter or a value out of range (limit over 100, page under 1, ...)',
  })
  @ApiOperation({ summary: 'Search and list plugins' })
  @ApiPublic()
  async list(@Query(CatalogueQueryPipe) query: CatalogueQuery, @Res({ passthrough: true }) res: Response): Promise<CataloguePageDto> {
    const { page, cacheControl } = await this.catalogue.page(query);
    res.setHeader('Cache-Control', cacheControl);
    return page;
  }

  @Get(':slug')
  @OptionalSession()
  // Admins also see verifiedBy: their answer is never stored by a shared cache.
  @UseInterceptors(CacheByCallerInterceptor)
  @Header('Vary', 'Authorization, Cookie')
  @ApiOkResponse({ type: PluginDetailDto })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Read a plugin' })
  detail(
    @Param('slug', SlugPipe) slug: string,
    @Query() query: PluginDetailQueryDto,
    @MaybeAuth() caller: AuthContext | null,
  ): Promise<PluginDetailDto> {
    return this.details.detail(slug, query.locale, caller);
  }
}
