import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { TransparencyLog } from './transparency-log';
import { TransparencyRepository } from './transparency.repository';

/**
 * The log's writer (`TransparencyLog.append`, `size`), for the modules whose changes are logged:
 * ingest (publish), publish (yank), integrity (re-signing, key-set changes). Separate from the
 * TransparencyModule (the HTTP side), which itself needs the integrity module to sign heads.
 */
@Module({
  providers: [
    repositoryProvider(TransparencyRepository),
    {
      provide: TransparencyLog,
      inject: [TransparencyRepository],
      useFactory: (repository: TransparencyRepository) => new TransparencyLog(repository),
    },
  ],
  exports: [TransparencyLog, TransparencyRepository],
})
export class TransparencyLogModule {}
