import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { WebAssets } from './web-assets';

/** The front end's scripts and stylesheet, versioned by content hash in their URLs. */
@ApiExcludeController()
@Controller('assets')
export class AssetsController {
  constructor(private readonly assets: WebAssets) {}

  @Get(':name')
  file(@Param('name') name: string, @Res() response: Response): void {
    const asset = this.assets.require(name);
    response.setHeader('Content-Type', asset.type);
    response.setHeader('Cache-Control', 'public, max-age=86400');
    response.setHeader('ETag', `"${asset.version}"`);
    response.send(asset.body);
  }
}
