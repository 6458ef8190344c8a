import { Module } from '@nestjs/common';
import { ForgesModule } from '../forges/forges.module';
import { IntegrityModule } from '../integrity/integrity.module';
import { KindsModule } from '../kinds/kinds.module';
import { PluginsModule } from '../plugins/plugins.module';
import { SettingsModule } from '../settings/settings.module';
import { TokensModule } from '../tokens/tokens.module';
import { AssetIngest } from './asset-ingest';
import { FetchPolicy } from './fetch-policy';
import { IngestService } from './ingest.service';
import { PublishController } from './publish.controller';
import { PublishService } from './publish.service';
import { ReadmeIngest } from './readme-ingest';

@Module({
  imports: [PluginsModule, KindsModule, SettingsModule, ForgesModule, IntegrityModule, TokensModule],
  controllers: [PublishController],
  providers: [FetchPolicy, AssetIngest, ReadmeIngest, IngestService, PublishService],
  exports: [IngestService],
})
export class PublishModule {}
