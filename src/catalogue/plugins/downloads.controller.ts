import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { DownloadSeriesDto, DownloadsQueryDto } from './dto/downloads.dto';
import { DownloadsService } from './downloads.service';

@ApiTags('plugins')
@Controller('api/plugins/:slug/downloads')
export class DownloadsController {
  constructor(private readonly downloads: DownloadsService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'Downloads per day',
    description:
      "A plugin's downloads (or one release's, with `version`) on each UTC day, the last `days` days ending today. Public; counts reach it within a few seconds of a download.",
    security: [],
  })
  @ApiOkResponse({ type: DownloadSeriesDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'A `days` outside 1-366, an unknown parameter, or a slug that cannot exist' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin, or no such release of it' })
  series(@Param('slug', SlugPipe) slug: string, @Query() query: DownloadsQueryDto): Promise<DownloadSeriesDto> {
    return this.downloads.series(slug, query);
  }
}
