import { Module } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { AuthModule } from '../../platform/auth/auth.module';
import { SiteModule } from '../../platform/site/site.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { ForgesModule } from '../../platform/forges/forges.module';
import { ImagesModule } from '../../catalogue/images/images.module';
import { IngestModule } from '../ingest/ingest.module';
import { PluginsModule } from '../../catalogue/plugins/plugins.module';
import { SettingsModule } from '../../platform/settings/settings.module';
import { KindsModule } from '../../catalogue/kinds/kinds.module';
import { AdminDeliveriesController } from './admin-deliveries.controller';
import { AdminDeliveriesService } from './admin-deliveries.service';
import { ManifestRefreshController } from './manifest-refresh.controller';
import { ManifestRefreshService } from './manifest-refresh.service';
import { DeliveriesController } from './deliveries.controller';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveriesService } from './deliveries.service';
import { DeliveryProcessor } from './delivery-processor';
import { DEFAULT_DELIVERY_WORKER_OPTIONS, DELIVERY_WORKER_OPTIONS, DeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker';
import { DeliveryJobs } from './delivery-jobs';
import { PgBossDeliveryJobs } from './pg-boss-delivery-jobs';
import { TableDeliveryJobs } from './table-delivery-jobs';
import { ForgeReleases } from './forge-releases';
import { ManifestResolver } from './manifest-resolver';
import { PluginAccess } from './plugin-access';
import { PluginWebhooksRepository } from './plugin-webhooks.repository';
import { Reconciler } from './reconciler';
import { WebhookReceiverService } from './webhook-receiver.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksLifecycle } from './webhooks-lifecycle';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';

/**
 * Release webhooks (docs/decisions.md#release-webhooks-are-verified-per-plugin-and-queued-durably):
 * the receiver, the durable delivery queue and its worker, which resolves the manifest and hands
 * the release to the ingest pipeline the CI push uses too.
 */
@Module({
  imports: [AuthModule, SiteModule, ImagesModule, PluginsModule, ForgesModule, IngestModule, SettingsModule, KindsModule, RateLimitModule],
  controllers: [WebhooksController, DeliveriesController, ManifestRefreshController, AdminDeliveriesController],
  providers: [
    repositoryProvider(DeliveriesRepository),
    repositoryProvider(PluginWebhooksRepository),
    {
      provide: DELIVERY_WORKER_OPTIONS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): DeliveryWorkerOptions => ({ ...DEFAULT_DELIVERY_WORKER_OPTIONS, leaseMs: config.webhookLeaseMs }),
    },
    ForgeReleases,
    ManifestResolver,
    DeliveryProcessor,
    {
      provide: DeliveryJobs,
      inject: [APP_CONFIG, DataSource, DeliveriesRepository, DELIVERY_WORKER_OPTIONS],
      useFactory: (config: AppConfig, dataSource: DataSource, deliveries: DeliveriesRepository, options: DeliveryWorkerOptions) =>
        config.databaseUrl
          ? new PgBossDeliveryJobs((dataSource.driver as PostgresDriver).master as Pool, deliveries, options)
          : new TableDeliveryJobs(deliveries),
    },
    DeliveryWorker,
    WebhookReceiverService,
    WebhooksLifecycle,
    PluginAccess,
    DeliveriesService,
    AdminDeliveriesService,
    Reconciler,
    ManifestRefreshService,
  ],
  exports: [PluginWebhooksRepository, ForgeReleases, ManifestResolver, DeliveryWorker, DeliveriesRepository],
})
export class WebhooksModule {}
