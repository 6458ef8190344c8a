import { Module } from '@nestjs/common';
import { ForgesModule } from '../../platform/forges/forges.module';
import { FetchPolicyModule } from '../../platform/fetch-policy/fetch-policy.module';
import { PluginsModule } from '../plugins/plugins.module';
import { ProviderStatsController } from './provider-stats.controller';
import { ProviderStatsService } from './provider-stats.service';

/** Repository numbers from the forges (spec "Provider stats"), outside the plugins module because it fetches through the fetch policy. */
@Module({
  imports: [PluginsModule, ForgesModule, FetchPolicyModule],
  controllers: [ProviderStatsController],
  providers: [ProviderStatsService],
})
export class ProviderStatsModule {}
