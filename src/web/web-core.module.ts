import { Module } from '@nestjs/common';
import { WebApi } from './web-api';
import { WebAssets } from './web-assets';
import { WebContextFactory } from './web-context';
import { WebRenderer } from './web-renderer';

/** What every page area shares: the typed API client per visitor, the frame, the built assets. */
@Module({
  providers: [WebApi, WebAssets, WebContextFactory, WebRenderer],
  exports: [WebApi, WebAssets, WebContextFactory, WebRenderer],
})
export class WebCoreModule {}
