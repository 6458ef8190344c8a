import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ProblemDto } from '../openapi/problem.dto';
import { CliDownloadService } from './cli-download.service';

/** A stable address that revalidates: the file changes when the registry is upgraded. */
const CACHE_CONTROL = 'public, max-age=300, must-revalidate';

@ApiTags('cli')
@Controller('cli')
export class CliDownloadController {
  constructor(private readonly downloads: CliDownloadService) {}

  @Get('registry.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', CACHE_CONTROL)
  @ApiOperation({ summary: 'Download the registry CLI as one JavaScript file', security: [] })
  @ApiProduces('text/javascript')
  @ApiOkResponse({ description: 'The `registry` CLI (validate, publish, verify) in one file for Node.js 20+, no node_modules: `node registry.js --help`' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'This instance has no single-file CLI built' })
  script(@Res() response: Response): void {
    const bundle = this.downloads.bundle();
    response.setHeader('ETag', bundle.etag);
    response.setHeader('Repr-Digest', bundle.reprDigest);
    response.send(bundle.body);
  }

  @Get('registry.js.sha256')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', CACHE_CONTROL)
  @ApiOperation({ summary: 'The SHA-256 of the single-file CLI, as a sha256sum line', security: [] })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: '`<hex>  registry.js`, for `sha256sum -c registry.js.sha256` beside the downloaded file' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'This instance has no single-file CLI built' })
  checksum(@Res() response: Response): void {
    const bundle = this.downloads.bundle();
    response.setHeader('ETag', bundle.checksumEtag);
    response.send(bundle.checksumLine);
  }
}
