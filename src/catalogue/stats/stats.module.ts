import { Module } from '@nestjs/common';
import { SiteModule } from '../../platform/site/site.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { KindsModule } from '../kinds/kinds.module';
import { RequestsModule } from '../requests/requests.module';
import { StatsController } from './stats.controller';
import { StatsRepository } from './stats.repository';
import { StatsService } from './stats.service';

/** `GET /api/stats`: the headline numbers. */
@Module({
  imports: [SiteModule, KindsModule, RequestsModule],
  controllers: [StatsController],
  providers: [repositoryProvider(StatsRepository), StatsService],
})
export class StatsModule {}
