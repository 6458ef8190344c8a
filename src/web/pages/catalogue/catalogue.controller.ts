import { Controller, Get, Param, Req, Res, UseFilters, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { WebErrorFilter } from '../../web-error.filter';
import { WebPageInterceptor } from '../../web-page.interceptor';
import type { RenderedPage } from '../../web-renderer';
import { BrowsePages } from './browse.pages';
import { CmsPages } from './cms.pages';
import { KindPages } from './kind.pages';
import { PluginPages } from './plugin.pages';
import { WishlistPages } from './wishlist.pages';

@ApiExcludeController()
@Controller()
@UseInterceptors(WebPageInterceptor)
@UseFilters(WebErrorFilter)
export class CataloguePageController {
  constructor(
    private readonly browsePages: BrowsePages,
    private readonly pluginPages: PluginPages,
    private readonly kindPages: KindPages,
    private readonly wishlistPages: WishlistPages,
    private readonly cmsPages: CmsPages,
  ) {}

  @Get('plugins')
  browse(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.browsePages.browse(request, response);
  }

  @Get('plugins/:slug')
  plugin(@Req() request: Request, @Res({ passthrough: true }) response: Response, @Param('slug') slug: string): Promise<RenderedPage> {
    return this.pluginPages.plugin(request, response, slug);
  }

  @Get('kinds/:key')
  kind(@Req() request: Request, @Res({ passthrough: true }) response: Response, @Param('key') key: string): Promise<RenderedPage> {
    return this.kindPages.kind(request, response, key);
  }

  @Get('wishlist')
  wishlist(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<RenderedPage> {
    return this.wishlistPages.wishlist(request, response);
  }

  @Get('pages/:slug')
  page(@Req() request: Request, @Res({ passthrough: true }) response: Response, @Param('slug') slug: string): Promise<RenderedPage> {
    return this.cmsPages.page(request, response, slug);
  }
}
