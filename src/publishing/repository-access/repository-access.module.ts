import { Module } from '@nestjs/common';
import { ForgesModule } from '../../platform/forges/forges.module';
import { IngestModule } from '../ingest/ingest.module';
import { SettingsModule } from '../../platform/settings/settings.module';
import { UsersModule } from '../../platform/users/users.module';
import { RepositoryAccess } from './repository-access';

/**
 * Proof of repository control at claim. A push, a submit and trusted publishing's pending publishers
 * all ask it, so it is a feature of its own below them, and none of them imports another for it.
 */
@Module({
  imports: [ForgesModule, UsersModule, SettingsModule, IngestModule],
  providers: [RepositoryAccess],
  exports: [RepositoryAccess],
})
export class RepositoryAccessModule {}
