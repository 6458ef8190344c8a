import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ProblemDto } from '../../openapi/problem.dto';
import { PageDto, PageQueryDto } from './dto/page.dto';
import { PagesService } from './pages.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

@ApiTags('cms')
@Controller('api/pages')
export class PagesController {
  constructor(private readonly pages: PagesService) {}

  @Get(':slug')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ type: PageDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No published page with this slug in any locale' })
  @ApiOperation({ summary: 'Read a content page' })
  @ApiPublic()
  read(@Param('slug') slug: string, @Query() query: PageQueryDto): Promise<PageDto> {
    return this.pages.read(slug, query.locale);
  }
}
