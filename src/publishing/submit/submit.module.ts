import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { SiteModule } from '../../platform/site/site.module';
import { ForgesModule } from '../../platform/forges/forges.module';
import { IngestModule } from '../ingest/ingest.module';
import { KindsModule } from '../../catalogue/kinds/kinds.module';
import { RepositoryAccessModule } from '../repository-access/repository-access.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { HookInstaller } from './hook-installer';
import { SubmitController } from './submit.controller';
import { SubmitService } from './submit.service';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';

/** `POST /api/submit/oauth`: claim a repository through a linked forge identity and install its release webhook. */
@Module({
  imports: [AuthModule, SiteModule, ForgesModule, IngestModule, KindsModule, RepositoryAccessModule, WebhooksModule, RateLimitModule],
  controllers: [SubmitController],
  providers: [SubmitService, HookInstaller],
})
export class SubmitModule {}
