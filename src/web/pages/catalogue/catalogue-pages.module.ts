import { Module } from '@nestjs/common';
import { WebCoreModule } from '../../web-core.module';
import { BrowsePages } from './browse.pages';
import { CataloguePageController } from './catalogue.controller';
import { CmsPages } from './cms.pages';
import { KindPages } from './kind.pages';
import { PluginPages } from './plugin.pages';
import { WishlistPages } from './wishlist.pages';

/** The catalogue pages of the web front end. */
@Module({
  imports: [WebCoreModule],
  controllers: [CataloguePageController],
  providers: [BrowsePages, PluginPages, KindPages, WishlistPages, CmsPages],
})
export class CataloguePagesModule {}
