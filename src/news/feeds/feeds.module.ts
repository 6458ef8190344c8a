import { Module } from '@nestjs/common';
import { SiteModule } from '../../platform/site/site.module';
import { KindsModule } from '../../catalogue/kinds/kinds.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { FeedsController } from './feeds.controller';
import { FeedsRepository } from './feeds.repository';
import { FeedsService } from './feeds.service';

/** Atom feeds of new releases: the catalogue, a kind, a plugin, an owner. */
@Module({
  imports: [KindsModule, SiteModule],
  controllers: [FeedsController],
  providers: [repositoryProvider(FeedsRepository), FeedsService],
})
export class FeedsModule {}
