import { Controller, Get, Header, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiReadLimited, ApiUpstreamLog } from '../../openapi/api-problems';
import { ApiPublic } from '../../openapi/api-public';
import { ProblemDto } from '../../openapi/problem.dto';
import { LogTiles } from './log-tiles';
import { TransparencyService } from './transparency.service';

/** The log as C2SP tlog-tiles clients and witnesses read it: `<origin>/checkpoint` and `<origin>/tile/…`. */
@ApiTags('transparency-log')
@Controller('log')
export class LogFilesController {
  constructor(
    private readonly log: TransparencyService,
    private readonly tiles: LogTiles,
  ) {}

  @Get('checkpoint')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  @ApiOperation({ summary: 'The signed checkpoint (tlog-tiles)', description: 'The same signed note as GET /api/log/head.' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'The signed checkpoint note', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiNotFoundResponse({
    type: ProblemDto,
    description: "On a mirror (MIRROR_OF), which serves its upstream's log: upstream's 404, passed on",
  })
  @ApiPublic()
  @ApiReadLimited()
  @ApiUpstreamLog()
  checkpoint(): Promise<string> {
    return this.log.checkpoint();
  }

  @Get('tile/*path')
  @ApiOperation({
    summary: 'A tile of the log (tlog-tiles)',
    description:
      "tile/<L>/<N>[.p/<W>]: W (256 when full) hashes of tree level 8L from index 256N; tile/entries/<N>[.p/<W>]: those leaves' entries as an entry bundle. Full tiles are immutable.",
  })
  @ApiParam({ name: 'path', description: 'The rest of the tile path, e.g. `0/x001/234.p/5` or `entries/000`', example: '0/000' })
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({ description: 'The tile', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Not a tile path' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'A tile the head does not hold yet' })
  @ApiPublic()
  @ApiReadLimited()
  @ApiUpstreamLog()
  async tile(@Param('path') path: string | string[], @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
    const tile = await this.tiles.tile(path);
    res.set(tile.headers);
    return new StreamableFile(tile.body);
  }
}
