import { Module } from '@nestjs/common';
import { ForgesModule } from '../../platform/forges/forges.module';
import { ImagesModule } from '../../catalogue/images/images.module';
import { IntegrityModule } from '../../trust/integrity/integrity.module';
import { KindsModule } from '../../catalogue/kinds/kinds.module';
import { PluginsModule } from '../../catalogue/plugins/plugins.module';
import { SettingsModule } from '../../platform/settings/settings.module';
import { TokensModule } from '../../accounts/tokens/tokens.module';
import { TransparencyLogModule } from '../../trust/transparency-log/transparency-log.module';
import { AssetIngest } from './asset-ingest';
import { FetchPolicyModule } from '../../platform/fetch-policy/fetch-policy.module';
import { IngestAudit } from './ingest-audit';
import { IngestGate } from './ingest-gate';
import { IngestProvenance } from './ingest-provenance';
import { IngestService } from './ingest.service';
import { ReadmeIngest } from './readme-ingest';
import { ReleaseImages } from './release-images';
import { ReadmeRerenderer } from './readme-rerenderer';
import { PluginClaims } from './plugin-claims';
import { PublisherRights } from './publisher-rights';
import { ReleaseRecorder } from './release-recorder';

/**
 * The release ingest pipeline, shared by every way a release arrives (CI push, release webhook):
 * manifest and attestation checks, SSRF-safe asset fetching and hashing, icons and screenshots, README rendering,
 * signing, and the one transaction that records it, plus the failure audit beside it; and the
 * background re-rendering of READMEs an older renderer produced.
 */
@Module({
  imports: [
    FetchPolicyModule,
    ImagesModule,
    PluginsModule,
    KindsModule,
    SettingsModule,
    ForgesModule,
    IntegrityModule,
    TokensModule,
    TransparencyLogModule,
  ],
  providers: [
    AssetIngest,
    ReleaseImages,
    ReadmeIngest,
    ReadmeRerenderer,
    PublisherRights,
    ReleaseRecorder,
    IngestProvenance,
    IngestService,
    IngestAudit,
    IngestGate,
    PluginClaims,
  ],
  exports: [ReleaseImages, IngestService, IngestAudit, IngestGate, FetchPolicyModule, PublisherRights, PluginClaims, ReadmeIngest],
})
export class IngestModule {}
