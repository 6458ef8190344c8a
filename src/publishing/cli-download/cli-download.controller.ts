import { Controller, Get, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ProblemDto } from '../../openapi/problem.dto';
import { CliDownloadService } from './cli-download.service';

/** A stable address that revalidates: the file changes when the registry is upgraded. */
const CACHE_CONTROL = 'public, max-age=300, must-revalidate';
const NOT_BUILT = { type: ProblemDto, description: 'This instance has no single-file CLI built' };

@ApiTags('cli')
@Controller('cli')
export class CliDownloadController {
  constructor(private readonly downloads: CliDownloadService) {}

  @Get('registry.js')
  @ApiOperation({ summary: 'Download the registry CLI as one JavaScript file', security: [] })
  @ApiOkResponse({
    description:
      'The `registry` author CLI (validate, publish, yank, unyank, deprecate, verify, latest, monitor, subscriptions) in one file for Node.js 20+, no node_modules: `node registry.js --help`',
    content: { 'text/javascript': { schema: { type: 'string' } } },
  })
  @ApiNotFoundResponse(NOT_BUILT)
  script(@Res() response: Response): void {
    const bundle = this.downloads.bundle();
    // Headers only once the file is there: a 404 stays a plain problem answer.
    response.set({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': CACHE_CONTROL,
      ETag: bundle.etag,
      'Repr-Digest': bundle.reprDigest,
    });
    response.send(bundle.body);
  }

  @Get('registry.js.sha256')
  @ApiOperation({ summary: 'The SHA-256 of the single-file CLI, as a sha256sum line', security: [] })
  @ApiOkResponse({
    description: '`<hex>  registry.js`, for `sha256sum -c registry.js.sha256` beside the downloaded file',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiNotFoundResponse(NOT_BUILT)
  checksum(@Res() response: Response): void {
    const bundle = this.downloads.bundle();
    response.set({ 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': CACHE_CONTROL, ETag: bundle.checksumEtag });
    response.send(bundle.checksumLine);
  }
}
