import { Module } from '@nestjs/common';
import { repositoryProvider } from '../database/repository-provider';
import { PluginsRepository } from './plugins.repository';
import { ReleasesController } from './releases.controller';
import { ReleasesRepository } from './releases.repository';
import { ReleasesService } from './releases.service';

@Module({
  controllers: [ReleasesController],
  providers: [
    repositoryProvider(PluginsRepository),
    repositoryProvider(ReleasesRepository),
    ReleasesService,
  ],
  exports: [PluginsRepository, ReleasesRepository],
})
export class PluginsModule {}
