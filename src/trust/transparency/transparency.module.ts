import { Module } from '@nestjs/common';
import { IntegrityModule } from '../integrity/integrity.module';
import { LeanLogReads } from './lean-log-reads';
import { LogFilesController } from './log-files.controller';
import { LogHeads } from './log-heads';
import { LogTiles } from './log-tiles';
import { MirrorLogModule } from '../mirror-log/mirror-log.module';
import { TransparencyController } from './transparency.controller';
import { TransparencyLogModule } from '../transparency-log/transparency-log.module';
import { TransparencyService } from './transparency.service';

/**
 * The transparency log's public side (docs/transparency-log.md): signed heads, proofs,
 * entries and tlog-tiles; the proofs are also answered on the catalogue lane (LeanLogReads).
 * Appends are the TransparencyLogModule's, called by the modules whose changes are logged. On a
 * mirror every read is upstream's log, passed on by the MirrorLogModule.
 */
@Module({
  imports: [TransparencyLogModule, IntegrityModule, MirrorLogModule],
  controllers: [TransparencyController, LogFilesController],
  providers: [LogHeads, LogTiles, TransparencyService, LeanLogReads],
  exports: [LeanLogReads],
})
export class TransparencyModule {}
