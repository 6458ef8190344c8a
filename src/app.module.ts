import { type DynamicModule, Module } from '@nestjs/common';
import { AdminModule } from './operator/admin/admin.module';
import { ForgeAdminModule } from './operator/forge-admin/forge-admin.module';
import { AuditModule } from './platform/audit/audit.module';
import { CommonModule } from './common/common.module';
import { ConfigModule } from './config/config.module';
import type { AppConfig } from './config/config.types';
import type { DatabaseHandle } from './database/database-handle';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './platform/health/health.module';
import { AuthModule } from './platform/auth/auth.module';
import { InitModule } from './operator/init/init.module';
import { TokensModule } from './accounts/tokens/tokens.module';
import { IntegrityModule } from './trust/integrity/integrity.module';
import { KindsModule } from './catalogue/kinds/kinds.module';
import { LocalSignInModule } from './accounts/local-sign-in/local-sign-in.module';
import { PluginsModule } from './catalogue/plugins/plugins.module';
import { PublishModule } from './publishing/publish/publish.module';
import { TrustedPublishingModule } from './publishing/trusted-publishing/trusted-publishing.module';
import { WebModule } from './web/web.module';
import { ProblemsModule } from './platform/problems/problems.module';
import { ImagesModule } from './catalogue/images/images.module';
import { ProviderStatsModule } from './catalogue/provider-stats/provider-stats.module';
import { SchemasModule } from './catalogue/schemas/schemas.module';
import { CliDownloadModule } from './publishing/cli-download/cli-download.module';
import { CmsModule } from './operator/cms/cms.module';
import { SiteModule } from './platform/site/site.module';
import { RequestsModule } from './catalogue/requests/requests.module';
import { StatsModule } from './catalogue/stats/stats.module';
import { SettingsAdminModule } from './platform/settings/settings-admin.module';
import { ResponseCacheModule } from './platform/response-cache/response-cache.module';
import { RedisModule } from './common/redis/redis.module';
import { RateLimitModule } from './platform/rate-limit/rate-limit.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { SubmitModule } from './publishing/submit/submit.module';
import { WebhooksModule } from './publishing/webhooks/webhooks.module';
import { ChangesModule } from './news/changes/changes.module';
import { TransparencyModule } from './trust/transparency/transparency.module';
import { FeedsModule } from './news/feeds/feeds.module';
import { SubscriptionsModule } from './news/subscriptions/subscriptions.module';
import { MirrorModule } from './mirror/mirror.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: DatabaseHandle): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule,
        DatabaseModule.forRoot(database),
        RedisModule,
        ResponseCacheModule,
        RateLimitModule,
        MetricsModule,
        AuditModule,
        HealthModule,
        AuthModule,
        LocalSignInModule,
        TokensModule,
        InitModule,
        IntegrityModule,
        KindsModule,
        PluginsModule,
        PublishModule,
        TrustedPublishingModule,
        WebhooksModule,
        ChangesModule,
        TransparencyModule,
        MirrorModule,
        SubscriptionsModule,
        SubmitModule,
        AdminModule,
        ForgeAdminModule,
        SiteModule,
        CmsModule,
        RequestsModule,
        StatsModule,
        SettingsAdminModule,
        SchemasModule,
        CliDownloadModule,
        ProblemsModule,
        ImagesModule,
        ProviderStatsModule,
        FeedsModule,
        WebModule,
      ],
    };
  }
}
