import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { ChangesController } from './changes.controller';
import { ChangesRepository } from './changes.repository';
import { ChangesService } from './changes.service';
import { LeanChangesReads } from './lean-changes-reads';

/** The public changes feed (`GET /api/changes`); its log is written by database triggers, not by this module. The catalogue lane answers its anonymous reads through LeanChangesReads. */
@Module({
  controllers: [ChangesController],
  providers: [repositoryProvider(ChangesRepository), ChangesService, LeanChangesReads],
  exports: [LeanChangesReads],
})
export class ChangesModule {}
