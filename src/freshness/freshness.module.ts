import { Module } from '@nestjs/common';
import { IntegrityModule } from '../integrity/integrity.module';
import { repositoryProvider } from '../persistence/repository-provider';
import { FreshnessRepository } from './freshness.repository';
import { FreshnessService } from './freshness.service';

/** Signed freshness statements on `latest` answers (issue 27); no routes of its own. */
@Module({
  imports: [IntegrityModule],
  providers: [repositoryProvider(FreshnessRepository), FreshnessService],
  exports: [FreshnessService],
})
export class FreshnessModule {}
