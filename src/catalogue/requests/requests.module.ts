import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { SiteModule } from '../../platform/site/site.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { KindsModule } from '../kinds/kinds.module';
import { PluginsModule } from '../plugins/plugins.module';
import { AdminRequestsController } from './admin-requests.controller';
import { AdminRequestsService } from './admin-requests.service';
import { RequestsController } from './requests.controller';
import { RequestsRepository } from './requests.repository';
import { RequestsService } from './requests.service';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';

/**
 * The wishlist (docs/decisions.md#wishlist-pages-site-settings-and-rate-limits): plugins people
 * would like, with one vote a user.
 */
@Module({
  imports: [AuthModule, SiteModule, KindsModule, PluginsModule, RateLimitModule],
  controllers: [RequestsController, AdminRequestsController],
  providers: [repositoryProvider(RequestsRepository), RequestsService, AdminRequestsService],
  exports: [RequestsRepository],
})
export class RequestsModule {}
