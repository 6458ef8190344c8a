import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { FetchPolicy } from './fetch-policy';

/** The outbound-HTTP policy as a provider of its own: ingest, webhooks, submit, repository access and provider stats share one. */
@Module({
  imports: [SettingsModule],
  providers: [FetchPolicy],
  exports: [FetchPolicy],
})
export class FetchPolicyModule {}
