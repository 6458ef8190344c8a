import { Module } from '@nestjs/common';
import { TransparencyLogModule } from '../../trust/transparency-log/transparency-log.module';
import { AuthModule } from '../../platform/auth/auth.module';
import { FreshnessModule } from '../../trust/freshness/freshness.module';
import { KindsModule } from '../kinds/kinds.module';
import { CatalogueFacetFields } from './catalogue-facet-fields';
import { repositoryProvider } from '../../persistence/repository-provider';
import { AdminPluginsController } from './admin-plugins.controller';
import { AdminPluginsService } from './admin-plugins.service';
import { CatalogueIndex } from './catalogue-index';
import { CatalogueIndexRepository } from './catalogue-index.repository';
import { CatalogueListing } from './catalogue-listing';
import { CatalogueRepository } from './catalogue.repository';
import { CatalogueService } from './catalogue.service';
import { DownloadCounter } from './download-counter';
import { AdminDeprecationController, DeprecationController } from './deprecation.controller';
import { DeprecationService } from './deprecation.service';
import { DownloadDaysRepository } from './download-days.repository';
import { DownloadsController } from './downloads.controller';
import { DownloadsService } from './downloads.service';
import { LatestController } from './latest.controller';
import { LeanCatalogueReads } from './lean-catalogue-reads';
import { LatestService } from './latest.service';
import { MyPluginsController } from './my-plugins.controller';
import { MyPluginsService } from './my-plugins.service';
import { PluginDetailService, STORED_PAGES } from './plugin-detail.service';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { PluginPageBuilder } from './plugin-page-builder';
import { PluginPageRepository } from './plugin-page.repository';
import { PluginsController } from './plugins.controller';
import { PluginsRepository } from './plugins.repository';
import { ReleaseReadmesRepository } from './release-readmes.repository';
import { ReleasesController } from './releases.controller';
import { ReleasesRepository } from './releases.repository';
import { ReleasesService } from './releases.service';

@Module({
  imports: [AuthModule, KindsModule, FreshnessModule, TransparencyLogModule],
  controllers: [
    ReleasesController,
    LatestController,
    PluginsController,
    AdminPluginsController,
    MyPluginsController,
    DownloadsController,
    DeprecationController,
    AdminDeprecationController,
  ],
  providers: [
    repositoryProvider(PluginsRepository),
    repositoryProvider(ReleasesRepository),
    repositoryProvider(ReleaseReadmesRepository),
    repositoryProvider(CatalogueRepository),
    repositoryProvider(CatalogueIndexRepository),
    repositoryProvider(PluginPageRepository),
    repositoryProvider(DownloadDaysRepository),
    CatalogueIndex,
    CatalogueFacetFields,
    ReleasesService,
    DownloadCounter,
    DownloadsService,
    LatestService,
    { provide: STORED_PAGES, useFactory: (config: AppConfig) => config.databaseUrl !== null, inject: [APP_CONFIG] },
    PluginDetailService,
    PluginPageBuilder,
    CatalogueService,
    AdminPluginsService,
    MyPluginsService,
    DeprecationService,
    CatalogueListing,
    LeanCatalogueReads,
  ],
  exports: [PluginsRepository, ReleasesRepository, ReleaseReadmesRepository, AdminPluginsService, CatalogueListing, LeanCatalogueReads],
})
export class PluginsModule {}
