import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { AuthModule } from '../../platform/auth/auth.module';
import { KindsModule } from '../../catalogue/kinds/kinds.module';
import { PluginsModule } from '../../catalogue/plugins/plugins.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { SubscriptionDeliveriesRepository } from './subscription-deliveries.repository';
import {
  DEFAULT_SUBSCRIPTION_WORKER_OPTIONS,
  SUBSCRIPTION_WORKER_OPTIONS,
  SubscriptionWorker,
  type SubscriptionWorkerOptions,
} from './subscription-worker';
import { SubscriptionsController } from './subscriptions.controller';
import { SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionsService } from './subscriptions.service';
import { WebhookSender } from './webhook-sender';

/**
 * Outbound webhooks (docs/subscriptions.md): users subscribe URLs to catalogue events, admins to
 * operational ones; events come from a trigger on audit_entry, deliveries are signed per Standard
 * Webhooks.
 */
@Module({
  imports: [AuthModule, PluginsModule, KindsModule, RateLimitModule],
  controllers: [SubscriptionsController],
  providers: [
    repositoryProvider(SubscriptionsRepository),
    repositoryProvider(SubscriptionDeliveriesRepository),
    {
      provide: SUBSCRIPTION_WORKER_OPTIONS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): SubscriptionWorkerOptions => ({
        ...DEFAULT_SUBSCRIPTION_WORKER_OPTIONS,
        leaseMs: config.webhookLeaseMs,
      }),
    },
    WebhookSender,
    SubscriptionWorker,
    SubscriptionsService,
  ],
  exports: [SubscriptionsRepository, SubscriptionDeliveriesRepository],
})
export class SubscriptionsModule {}
