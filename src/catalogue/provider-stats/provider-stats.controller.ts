import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { ProviderStatsDto } from './dto/provider-stats.dto';
import { ProviderStatsService } from './provider-stats.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

@ApiTags('plugins')
@Controller('api/plugins/:slug/stats')
export class ProviderStatsController {
  constructor(private readonly providerStats: ProviderStatsService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=600')
  @ApiOkResponse({
    type: ProviderStatsDto,
    description: "The repository's stars, forks, watchers, last push and homepage from its forge, cached 10 minutes",
  })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: "Read a plugin's repository statistics" })
  @ApiPublic()
  stats(@Param('slug', SlugPipe) slug: string): Promise<ProviderStatsDto> {
    return this.providerStats.stats(slug);
  }
}
