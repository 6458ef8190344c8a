import { Module } from '@nestjs/common';
import { IntegrityModule } from '../integrity/integrity.module';
import { FreshnessService } from './freshness.service';

/**
 * Signed freshness statements on `latest` answers (docs/verifying-downloads.md#freshness); no
 * routes or tables of its own.
 */
@Module({
  imports: [IntegrityModule],
  providers: [FreshnessService],
  exports: [FreshnessService],
})
export class FreshnessModule {}
