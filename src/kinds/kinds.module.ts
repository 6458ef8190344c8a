import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SettingsModule } from '../settings/settings.module';
import { KindsController } from './kinds.controller';
import { KindsRepository } from './kinds.repository';
import { KindsService } from './kinds.service';

@Module({
  imports: [SettingsModule],
  controllers: [KindsController],
  providers: [{ provide: KindsRepository, useFactory: (dataSource: DataSource) => new KindsRepository(dataSource), inject: [DataSource] }, KindsService],
  exports: [KindsService],
})
export class KindsModule {}
