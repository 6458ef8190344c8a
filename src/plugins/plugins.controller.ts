import { Controller, Get, Header, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthContext } from '../auth/auth-context';
import { MaybeAuth, OptionalSession } from '../auth/auth.decorators';
import { CacheByCallerInterceptor } from '../common/http/cache-by-caller.interceptor';
import { SlugPipe } from '../common/validation/slug.pipe';
import { ProblemDto } from '../openapi/problem.dto';
import { type CatalogueQuery, CatalogueQueryPipe } from './catalogue-query.pipe';
import { CatalogueService } from './catalogue.service';
import { CataloguePageDto } from './dto/catalogue.dto';
import { PluginDetailDto, PluginDetailQueryDto } from './dto/plugin-detail.dto';
import { PluginDetailService } from './plugin-detail.service';

@ApiTags('plugins')
@Controller('api/plugins')
export class PluginsController {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly details: PluginDetailService,
  ) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=30')
  @ApiOkResponse({ type: CataloguePageDto, description: 'Also any number of ext.<key>=<value> query parameters, combined with AND' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'An unknown parameter or a value out of range (limit over 100, page under 1, ...)' })
  list(@Query(CatalogueQueryPipe) query: CatalogueQuery): Promise<CataloguePageDto> {
    return this.catalogue.page(query);
  }

  @Get(':slug')
  @OptionalSession()
  // Admins also see verifiedBy: their answer is never stored by a shared cache.
  @UseInterceptors(CacheByCallerInterceptor)
  @Header('Vary', 'Authorization, Cookie')
  @ApiOkResponse({ type: PluginDetailDto })
  @ApiNotFoundResponse({ type: ProblemDto })
  detail(@Param('slug', SlugPipe) slug: string, @Query() query: PluginDetailQueryDto, @MaybeAuth() caller: AuthContext | null): Promise<PluginDetailDto> {
    return this.details.detail(slug, query.locale, caller);
  }
}
