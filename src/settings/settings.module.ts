import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SettingsRepository } from './settings.repository';

@Module({
  providers: [{ provide: SettingsRepository, useFactory: (dataSource: DataSource) => new SettingsRepository(dataSource), inject: [DataSource] }],
  exports: [SettingsRepository],
})
export class SettingsModule {}
