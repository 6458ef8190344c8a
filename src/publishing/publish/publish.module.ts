import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { ForgesModule } from '../../platform/forges/forges.module';
import { IngestModule } from '../ingest/ingest.module';
import { PluginsModule } from '../../catalogue/plugins/plugins.module';
import { RepositoryAccessModule } from '../repository-access/repository-access.module';
import { SettingsModule } from '../../platform/settings/settings.module';
import { TokensModule } from '../../accounts/tokens/tokens.module';
import { UsersModule } from '../../platform/users/users.module';
import { OwnerYankController } from './owner-yank.controller';
import { PublishController } from './publish.controller';
import { PublishService } from './publish.service';
import { TrustedPublishingModule } from '../trusted-publishing/trusted-publishing.module';
import { TransparencyLogModule } from '../../trust/transparency-log/transparency-log.module';

/** The CI push endpoint (token, scopes, claim rules) and yank (also an owner's, signed in); ingest itself is the IngestModule's. */
@Module({
  imports: [
    AuthModule,
    PluginsModule,
    ForgesModule,
    TokensModule,
    UsersModule,
    SettingsModule,
    IngestModule,
    RepositoryAccessModule,
    TrustedPublishingModule,
    TransparencyLogModule,
  ],
  controllers: [PublishController, OwnerYankController],
  providers: [PublishService],
})
export class PublishModule {}
