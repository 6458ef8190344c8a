import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PluginsRepository } from './plugins.repository';
import { ReleasesController } from './releases.controller';
import { ReleasesRepository } from './releases.repository';
import { ReleasesService } from './releases.service';

@Module({
  controllers: [ReleasesController],
  providers: [
    { provide: PluginsRepository, useFactory: (dataSource: DataSource) => new PluginsRepository(dataSource), inject: [DataSource] },
    { provide: ReleasesRepository, useFactory: (dataSource: DataSource) => new ReleasesRepository(dataSource), inject: [DataSource] },
    ReleasesService,
  ],
  exports: [PluginsRepository, ReleasesRepository],
})
export class PluginsModule {}
