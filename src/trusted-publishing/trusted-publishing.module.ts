import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { repositoryProvider } from '../database/repository-provider';
import { ForgesModule } from '../forges/forges.module';
import { IngestModule } from '../ingest/ingest.module';
import { PluginsModule } from '../plugins/plugins.module';
import { RepositoryAccessModule } from '../publish/repository-access.module';
import { PendingPublishersController } from './pending-publishers.controller';
import { PendingPublishersRepository } from './pending-publishers.repository';
import { PendingPublishersService } from './pending-publishers.service';
import { PublisherIdentities } from './publisher-identity';
import { TrustedPublishersController } from './trusted-publishers.controller';
import { TrustedPublishersRepository } from './trusted-publishers.repository';
import { TrustedPublishersService } from './trusted-publishers.service';

/**
 * Trusted publishing (issue 16): CI jobs publish with their forge's OIDC ID token instead of a
 * stored secret. Owners name the CI jobs that may publish a plugin; signed-in users name the CI
 * job that will claim a slug not yet taken.
 */
@Module({
  imports: [AuthModule, PluginsModule, ForgesModule, IngestModule, RepositoryAccessModule],
  controllers: [TrustedPublishersController, PendingPublishersController],
  providers: [
    repositoryProvider(TrustedPublishersRepository),
    repositoryProvider(PendingPublishersRepository),
    PublisherIdentities,
    TrustedPublishersService,
    PendingPublishersService,
  ],
  exports: [TrustedPublishersRepository, PendingPublishersRepository],
})
export class TrustedPublishingModule {}
