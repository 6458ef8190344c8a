import { Module } from '@nestjs/common';
import { AssetsController } from './assets.controller';
import { FaviconController } from './favicon.controller';
import { FaviconService } from './favicon.service';
import { AccountPagesModule } from './pages/account/account-pages.module';
import { AdminPagesModule } from './pages/admin/admin-pages.module';
import { CataloguePagesModule } from './pages/catalogue/catalogue-pages.module';
import { HomePagesModule } from './pages/home/home-pages.module';
import { WebCoreModule } from './web-core.module';
import { WebNotFoundPage } from './web-not-found';

/**
 * The web front end (docs/web.md): server-rendered pages built only from this instance's public
 * API through the typed client, enhanced by small browser bundles. It owns no data, so it has
 * no entities or repository.
 */
@Module({
  imports: [WebCoreModule, HomePagesModule, CataloguePagesModule, AccountPagesModule, AdminPagesModule],
  controllers: [AssetsController, FaviconController],
  providers: [WebNotFoundPage, FaviconService],
})
export class WebModule {}
