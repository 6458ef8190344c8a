import { Module } from '@nestjs/common';
import { ForgesModule } from '../forges/forges.module';
import { IngestModule } from '../ingest/ingest.module';
import { SettingsModule } from '../settings/settings.module';
import { UsersModule } from '../users/users.module';
import { RepositoryAccess } from './repository-access';

/** Proof of repository control at claim, on its own so claim paths outside the push (trusted publishing) share it without a module cycle. */
@Module({
  imports: [ForgesModule, UsersModule, SettingsModule, IngestModule],
  providers: [RepositoryAccess],
  exports: [RepositoryAccess],
})
export class RepositoryAccessModule {}
