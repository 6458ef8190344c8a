import { Module } from '@nestjs/common';
import { repositoryProvider } from '../persistence/repository-provider';
import { ChangesController } from './changes.controller';
import { ChangesRepository } from './changes.repository';
import { ChangesService } from './changes.service';

/** The public changes feed (`GET /api/changes`); its log is written by database triggers, not by this module. */
@Module({
  controllers: [ChangesController],
  providers: [repositoryProvider(ChangesRepository), ChangesService],
})
export class ChangesModule {}
