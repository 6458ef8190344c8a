import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { SettingsModule } from '../settings/settings.module';
import { AdminSiteController } from './admin-site.controller';
import { BrandingRepository } from './branding.repository';
import { BrandingService } from './branding.service';
import { FeatureGuard } from './feature.guard';
import { FeatureFlagsRepository } from './feature-flags.repository';
import { FeatureFlagsService } from './feature-flags.service';
import { I18nRepository } from './i18n.repository';
import { I18nService } from './i18n.service';
import { SiteController } from './site.controller';

/**
 * The site as a whole: its branding, its languages and its feature flags. Modules that put
 * endpoints behind a flag import this one for `@Feature(...)`; feeds read the branding, CMS pages the languages.
 */
@Module({
  imports: [AuthModule, SettingsModule],
  controllers: [SiteController, AdminSiteController],
  providers: [
    repositoryProvider(BrandingRepository),
    repositoryProvider(I18nRepository),
    repositoryProvider(FeatureFlagsRepository),
    BrandingService,
    I18nService,
    FeatureFlagsService,
    FeatureGuard,
  ],
  exports: [FeatureFlagsService, FeatureGuard, I18nService, BrandingService],
})
export class SiteModule {}
