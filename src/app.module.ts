import { type DynamicModule, Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module';
import { ForgeAdminModule } from './forge-admin/forge-admin.module';
import { AuditModule } from './audit/audit.module';
import { CommonModule } from './common/common.module';
import { ConfigModule } from './config/config.module';
import type { AppConfig } from './config/config.types';
import type { DatabaseHandle } from './database/database-handle';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { AuthModule } from './auth/auth.module';
import { InitModule } from './init/init.module';
import { TokensModule } from './tokens/tokens.module';
import { IntegrityModule } from './integrity/integrity.module';
import { KindsModule } from './kinds/kinds.module';
import { LocalSignInModule } from './local-sign-in/local-sign-in.module';
import { PluginsModule } from './plugins/plugins.module';
import { PublishModule } from './publish/publish.module';
import { TrustedPublishingModule } from './trusted-publishing/trusted-publishing.module';
import { WebModule } from './web/web.module';
import { ProblemsModule } from './problems/problems.module';
import { ImagesModule } from './images/images.module';
import { ProviderStatsModule } from './provider-stats/provider-stats.module';
import { SchemasModule } from './schemas/schemas.module';
import { CliDownloadModule } from './cli-download/cli-download.module';
import { CmsModule } from './cms/cms.module';
import { SiteModule } from './platform/site/site.module';
import { RequestsModule } from './requests/requests.module';
import { StatsModule } from './stats/stats.module';
import { SettingsAdminModule } from './settings/settings-admin.module';
import { ResponseCacheModule } from './response-cache/response-cache.module';
import { RedisModule } from './common/redis/redis.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { MetricsModule } from './metrics/metrics.module';
import { SubmitModule } from './submit/submit.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { ChangesModule } from './changes/changes.module';
import { TransparencyModule } from './transparency/transparency.module';
import { FeedsModule } from './feeds/feeds.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
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
