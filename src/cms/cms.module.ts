import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { repositoryProvider } from '../persistence/repository-provider';
import { SettingsModule } from '../settings/settings.module';
import { AdminPagesController } from './admin-pages.controller';
import { AdminSiteController } from './admin-site.controller';
import { BrandingRepository } from './branding.repository';
import { BrandingService } from './branding.service';
import { FeatureGuard } from './feature.guard';
import { FeatureFlagsRepository } from './feature-flags.repository';
import { FeatureFlagsService } from './feature-flags.service';
import { I18nRepository } from './i18n.repository';
import { I18nService } from './i18n.service';
import { PageRenderer } from './page-renderer';
import { PagesController } from './pages.controller';
import { PagesRepository } from './pages.repository';
import { PagesService } from './pages.service';
import { SiteController } from './site.controller';

/**
 * What the site shows around the catalogue: CMS pages, branding, languages and feature flags.
 * Modules that put endpoints behind a flag import this one for `@Feature(...)`.
 */
@Module({
  imports: [AuthModule, SettingsModule],
  controllers: [PagesController, AdminPagesController, SiteController, AdminSiteController],
  providers: [
    repositoryProvider(PagesRepository),
    repositoryProvider(BrandingRepository),
    repositoryProvider(I18nRepository),
    repositoryProvider(FeatureFlagsRepository),
    PageRenderer,
    PagesService,
    BrandingService,
    I18nService,
    FeatureFlagsService,
    FeatureGuard,
  ],
  exports: [FeatureFlagsService, FeatureGuard, I18nService, BrandingService],
})
export class CmsModule {}
