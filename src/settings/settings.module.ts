import { Module } from '@nestjs/common';
import { repositoryProvider } from '../database/repository-provider';
import { SettingsRepository } from './settings.repository';

@Module({
  providers: [repositoryProvider(SettingsRepository)],
  exports: [SettingsRepository],
})
export class SettingsModule {}
