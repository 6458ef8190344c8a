import { Module } from '@nestjs/common';
import { repositoryProvider } from '../database/repository-provider';
import { SettingsModule } from '../settings/settings.module';
import { KindsController } from './kinds.controller';
import { KindsRepository } from './kinds.repository';
import { KindsService } from './kinds.service';

@Module({
  imports: [SettingsModule],
  controllers: [KindsController],
  providers: [repositoryProvider(KindsRepository), KindsService],
  exports: [KindsService],
})
export class KindsModule {}
