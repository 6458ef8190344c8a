import { Controller, Get, Head, Header, Param, Query, Redirect, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiFoundResponse, ApiNotFoundResponse, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ProblemDto } from '../../openapi/problem.dto';
import { LatestReleaseDto, LatestReleaseQueryDto, ReleaseDto } from './dto/release.dto';
import { ReleasesService } from './releases.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

@ApiTags('releases')
@Controller('api/plugins/:slug/releases')
export class ReleasesController {
  constructor(private readonly releases: ReleasesService) {}

  @Get('latest')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({
    type: LatestReleaseDto,
    headers: { 'Registry-Freshness': { description: 'The signed freshness statement, as in `freshness`', schema: { type: 'string' } } },
    description:
      'The SemVer-highest release that is not yanked and, unless prerelease=1, not a prerelease. For a deprecated plugin, the RFC 9745 headers `/api/plugins/{slug}/latest` sends: `Deprecation: @<unix seconds>` and `Link` (rel="deprecation", rel="successor-version")',
  })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Read the latest release' })
  @ApiPublic()
  async latest(
    @Param('slug') slug: string,
    @Query() query: LatestReleaseQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LatestReleaseDto> {
    const answer = await this.releases.latest(slug, query.prerelease === '1');
    res.set(answer.headers);
    return answer.body;
  }

  @Get(':version')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ type: ReleaseDto })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Read a release' })
  @ApiPublic()
  byVersion(@Param('slug') slug: string, @Param('version') version: string): Promise<ReleaseDto> {
    return this.releases.byVersion(slug, version);
  }

  @Get(':version/manifest')
  @Header('Content-Type', 'application/json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiProduces('application/json')
  @ApiOkResponse({ description: 'The parsed manifest as RFC 8785 canonical JSON: its SHA-256 is the signed manifest_sha256' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: "Read a release's manifest" })
  @ApiPublic()
  manifest(@Param('slug') slug: string, @Param('version') version: string): Promise<string> {
    return this.releases.manifest(slug, version);
  }

  // Declared before the GET route, which Express would otherwise also answer HEAD with.
  @Head(':version/assets/:name')
  @Redirect()
  @ApiFoundResponse({ description: 'Where the asset lives, without counting a download (clients resolving the link, `registry verify`)' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: "Resolve an asset's location" })
  @ApiPublic()
  async resolveDownload(
    @Param('slug') slug: string,
    @Param('version') version: string,
    @Param('name') name: string,
  ): Promise<{ url: string; statusCode: number }> {
    return { url: await this.releases.download(slug, version, name, false), statusCode: 302 };
  }

  @Get(':version/assets/:name')
  @Redirect()
  @ApiFoundResponse({ description: 'Counts the download and redirects to the asset' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Download an asset' })
  @ApiPublic()
  async download(
    @Param('slug') slug: string,
    @Param('version') version: string,
    @Param('name') name: string,
  ): Promise<{ url: string; statusCode: number }> {
    return { url: await this.releases.download(slug, version, name, true), statusCode: 302 };
  }
}
