import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ForgesModule } from '../forges/forges.module';
import { IngestModule } from '../ingest/ingest.module';
import { PluginsModule } from '../plugins/plugins.module';
import { RepositoryAccessModule } from '../repository-access/repository-access.module';
import { SettingsModule } from '../settings/settings.module';
import { TokensModule } from '../tokens/tokens.module';
import { UsersModule } from '../users/users.module';
import { OwnerYankController } from './owner-yank.controller';
import { PublishController } from './publish.controller';
import { PublishService } from './publish.service';
import { TrustedPublishingModule } from '../trusted-publishing/trusted-publishing.module';
import { TransparencyLogModule } from '../transparency-log/transparency-log.module';

/** The CI push endpoint (token, scopes, claim rules) and yank (also an owner's, signed in); ingest itself is the IngestModule's. */
@Module({
  imports: [AuthModule, PluginsModule, ForgesModule, TokensModule, UsersModule, SettingsModule, IngestModule, RepositoryAccessModule, TrustedPublishingModule, TransparencyLogModule],
  controllers: [PublishController, OwnerYankController],
  providers: [PublishService],
})
export class PublishModule {}
